import ChatEvalCore
import ChatEvalLlama
import ChatEvalRuntime
import Foundation
import Testing

/// On the real model: the process's memory split between llama.cpp and the harness
/// (`LlamaChatRuntime.memoryAttribution`, what `run --memory-attribution` prints).
extension RealModelTests {
    @Suite struct MemoryAttributionTests {
        @Test func afterATurnTheModelItsBuffersAndItsLibrariesAreTheEnginesAndTheRestTheHarnesss() async throws {
            let runtime = try RealModel.runtime()
            _ = try await respond(runtime, [ChatMessage(role: .user, content: "Name a colour.")], options: GenerationOptions(maxTokens: 4))
            let split = try #require(runtime.memoryAttribution())
            let memory = try #require(runtime.identity.memory)
            #expect(split.modelFile + split.engineBuffers + split.engineCode + split.harness == split.total)
            // The mappings' resident pages are the process's (VmRSS read just before and after
            // them). Other suites' tests allocate meanwhile (one touches 512 MiB): some of five
            // tries agrees within 4 MiB.
            var gaps: [Int] = []
            for _ in 0..<5 {
                let before = ProcessMemory.residentBytes() ?? 0
                let total = try #require(runtime.memoryAttribution()).total
                let after = ProcessMemory.residentBytes() ?? 0
                gaps.append(max(0, min(before, after) - total, total - max(before, after)))
            }
            #expect(gaps.contains { $0 < 4 << 20 }, "bytes between the mappings' sum and VmRSS: \(gaps)")
            // The turn read the weights. (Not "at most the file's size": other suites of this test
            // process map the same file for runtimes of their own, and each mapping counts.)
            #expect(split.modelFile > 0)
            // The KV cache and compute buffers are allocated, and partly touched, by a turn.
            #expect(split.engineBuffers > 8 << 20, "\(split)")
            #expect(split.engineBuffers <= (memory.engineBytes ?? .max) + (64 << 20), "\(split)")
            #expect(split.engineCode > 0)
            let files = split.harnessBytesByFile.keys.map { URL(fileURLWithPath: $0).lastPathComponent }
            #expect(files.contains { $0.hasPrefix("libswiftCore") }, "\(files)")
            #expect(!files.contains { $0.contains("libllama") || $0.contains("libggml") }, "\(files)")
            // This model's file is the engine's; another model of the process counts as the harness's.
            let model = URL(fileURLWithPath: runtime.identity.model.path).resolvingSymlinksInPath().path
            #expect(split.harnessBytesByFile[model] == nil, "\(files)")
        }

        /// Without the setting nothing is attributed: the engine's regions were not told apart.
        @Test func aRuntimeLoadedWithoutTheSettingAttributesNothing() throws {
            #expect(try RealModel.gemma().memoryAttribution() == nil)
        }
    }
}
