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

    @Test func severalBuffersOfAKindAddUp() {
        let memory = LlamaMemoryReport.parse([
            "llama_kv_cache_iswa: CPU KV buffer size = 12.00 MiB",
            "llama_kv_cache_iswa: CPU KV buffer size = 60.00 MiB",
        ])
        #expect(memory.kvCacheBytes == 72 << 20)
        #expect(memory.modelBytes == nil && memory.engineBytes == nil)
    }
}
