# Unity builds for the targets only the reference tools (llama-server, llama-bench) need: the
# common library, mtmd, and the server's own libraries. Each of their ~120 source files includes
# nlohmann/json and instantiates and optimises the same templates again; compiled 8 files to a
# unit they took 287 CPU-s instead of 447 (llama-server from a built libllama, -O3 as before,
# 2-core Intel Xeon, 2026-11-30), and `make test` builds them beside the test bundle, so the CPU
# is what it pays. libggml and libllama (the engine ChatEval measures) are untouched: their
# objects are not rebuilt when this file is added, and the engine key does not include it.
#
# set-up passes this file as CMAKE_PROJECT_INCLUDE when it configures the tools. The targets do
# not exist yet when it is included (right after `project()`), so the properties are set by a
# call deferred to the end of the top-level CMakeLists.txt.
include_guard(GLOBAL)

function(_chateval_unity_tools)
  foreach(target llama-common mtmd server-context)
    if(NOT TARGET ${target})
      continue()
    endif()
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON)
    # mtmd-helper*.cpp refuse to be compiled after mtmd's internal headers (an #error).
    get_target_property(folder ${target} SOURCE_DIR)
    get_target_property(sources ${target} SOURCES)
    foreach(source IN LISTS sources)
      if(source MATCHES "mtmd-helper")
        # A relative path would name a file in the top-level folder, not the target's.
        set_source_files_properties("${folder}/${source}" TARGET_DIRECTORY ${target}
          PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
      endif()
    endforeach()
  endforeach()
endfunction()

# The server's own code comes last in the build, one library after another, so a unit there is
# time the other core may wait: 4 files to a unit.
function(_chateval_unity_batches)
  if(TARGET server-context)
    set_target_properties(server-context PROPERTIES UNITY_BUILD_BATCH_SIZE 4)
  endif()
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _chateval_unity_batches)
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _chateval_unity_tools)
