import ChatEvalCore
import ChatEvalReport
import Testing

/// The lines that open a run say how the engine caches: a window line only for a model that has
/// a sliding window, and which cache it keeps.
@Suite struct RunHeaderTests {
    static func identity(window: Int?, cache: SlidingWindowCache?) -> RuntimeIdentity {
        RuntimeIdentity(
            engine: "llama.cpp", build: "b1", model: ModelIdentity(path: "/m.gguf", fileBytes: 1 << 20, description: "gemma3 270M"),
            chatTemplate: "gemma", chatTemplateSource: "builtin", contextSize: 4096, batchSize: 512, threads: 2,
            kvCacheBytes: 27 << 20, inProcess: true, slidingWindow: window, slidingWindowCache: cache)
    }

    @Test func aModelWithoutAWindowHasNoWindowLine() {
        let header = RunHeader.render(Self.identity(window: nil, cache: nil), cacheMode: .session)
        #expect(!header.contains("window "))
        #expect(header.contains("context   4096 tokens, KV cache 27 MiB"))
    }

    @Test(arguments: [(SlidingWindowCache?.none, "cache full (any prefix reusable)"), (.full, "cache full"), (.window, "cache windowed")])
    func aSlidingWindowModelSaysWhichCacheItKeeps(_ cache: SlidingWindowCache?, _ expected: String) {
        let header = RunHeader.render(Self.identity(window: 512, cache: cache), cacheMode: .session)
        let line = header.split(separator: "\n").first { $0.hasPrefix("window") }
        #expect(line?.contains("512-token sliding attention") == true)
        #expect(line?.contains(expected) == true, "\(line ?? "no window line")")
    }
}
