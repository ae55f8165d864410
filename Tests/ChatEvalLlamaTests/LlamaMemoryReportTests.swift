import Testing

@testable import ChatEvalLlama

/// llama.cpp's own report of its buffers, read from the lines it logs while loading.
@Suite struct LlamaMemoryReportTests {
    @Test func buffersAreReadFromTheLog() {
        let memory = LlamaMemoryReport.parse([
            "load_tensors:   CPU_Mapped model buffer size =    92.10 MiB",
            "llama_context:        CPU  output buffer size =     0.19 MiB",
            "llama_kv_cache:        CPU KV buffer size =    90.00 MiB",
            "sched_reserve:        CPU compute buffer size =   106.77 MiB",
            "~llama_context:        CPU compute buffer size is 106.7695 MiB, matches expectation of 106.7695 MiB",
            "print_info: file size   = 92.10 MiB (5.74 BPW)",
        ])
        #expect(memory.modelBytes == Int((92.10 * 1_048_576).rounded()))
        #expect(memory.kvCacheBytes == 90 << 20)
        #expect(memory.computeBytes == Int((106.77 * 1_048_576).rounded()))
        #expect(memory.outputBytes == Int((0.19 * 1_048_576).rounded()))
    }

    /// Gemma 3 with a windowed cache: two caches, the windowed layers' with fewer cells; the
    /// bytes in use grow with the cached tokens up to each cache's cells.
    @Test func eachKVCachesCellsAreReadAndFillUpToTheirSize() {
        let caches = LlamaMemoryReport.kvCaches([
            "llama_kv_cache_iswa: creating non-SWA KV cache, size = 4096 cells",
            "llama_kv_cache:        CPU KV buffer size =    12.00 MiB",
            "llama_kv_cache: size =   12.00 MiB (  4096 cells,   3 layers,  1/1 seqs), K (f16):    6.00 MiB, V (f16):    6.00 MiB",
            "llama_kv_cache: size =   15.00 MiB (  1024 cells,  15 layers,  1/1 seqs), K (f16):    7.50 MiB, V (f16):    7.50 MiB",
            "llama_kv_cache: size = many MiB (  1024 cells, ...)",
        ])
        #expect(caches == [.init(bytes: 12 << 20, cells: 4096), .init(bytes: 15 << 20, cells: 1024)])
        #expect(LlamaMemoryReport.bytesInUse(caches, tokens: 0) == 0)
        let mebibyte = 1 << 20
        #expect(LlamaMemoryReport.bytesInUse(caches, tokens: 1024) == 3 * mebibyte + 15 * mebibyte)
        #expect(LlamaMemoryReport.bytesInUse(caches, tokens: 2048) == 6 * mebibyte + 15 * mebibyte, "the windowed cache is full at 1024")
        #expect(LlamaMemoryReport.bytesInUse(caches, tokens: 9999) == 27 << 20)
    }

    @Test func severalBuffersOfAKindAddUp() {
        let memory = LlamaMemoryReport.parse([
            "llama_kv_cache_iswa: CPU KV buffer size = 12.00 MiB",
            "llama_kv_cache_iswa: CPU KV buffer size = 60.00 MiB",
        ])
        #expect(memory.kvCacheBytes == 72 << 20)
        #expect(memory.modelBytes == nil && memory.engineBytes == nil)
    }
}
