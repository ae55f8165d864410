# Unity builds for two of the libraries only the reference tools (llama-server, llama-bench) need:
# `llama-common` (52 files, 33 of them naming JSON: nlohmann/json's templates are instantiated
# and optimised again in each) and `mtmd` (51 files, most of them small model graphs behind one
# shared header, models.h); and for the server's context library, 4 files to a unit (below).
# Built from a built libllama, llama-server took 447 CPU-s file by file and 287 CPU-s with these
# three and the server's own small library as 8-file units (2-core Intel Xeon, 2026-11-30, -O3
# as before); `make test` builds it beside the test bundle, so the CPU is what it pays. libggml
# and libllama (the engine ChatEval measures) are untouched: their objects are not rebuilt when
# this file is added, and the engine key does not include it.
#
# set-up passes a copy of this file as CMAKE_PROJECT_INCLUDE when it configures the tools. The
# targets do not exist yet when it is included (right after `project()`), so the properties are
# set by a call deferred to the end of the top-level CMakeLists.txt.
include_guard(GLOBAL)

function(_chateval_unity_tools)
  foreach(target llama-common mtmd server-context)
    if(NOT TARGET ${target})
      continue()
    endif()
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON)
    # The server's own code comes last in the build, one library after another, so a unit there
    # is time the other core may wait: 4 files to a unit for its context library (its own small
    # library, 3 files, stays file by file). Its build then ended 29 and 33 s after the tests'
    # build in `make test`'s build phase, against 43–60 s with 8-file units (README, "A fresh start").
    if(target STREQUAL "server-context")
      set_target_properties(${target} PROPERTIES UNITY_BUILD_BATCH_SIZE 4)
    endif()
    # mtmd-helper*.cpp refuse to be compiled after mtmd's internal headers (an #error).
    get_target_property(folder ${target} SOURCE_DIR)
    get_target_property(sources ${target} SOURCES)
    foreach(source IN LISTS sources)
      if(source MATCHES "mtmd-helper")
        # A relative path would name a file in the top-level folder, not the target's.
        cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${folder}")
        set_source_files_properties("${source}" TARGET_DIRECTORY ${target}
          PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
      endif()
    endforeach()
  endforeach()
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _chateval_unity_tools)
