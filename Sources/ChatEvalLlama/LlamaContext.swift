internal import CLlama

/// An inference context over a model: the KV cache and the compute graph. Owns its
/// `llama_context *` (freed in deinit) and keeps its model alive.
///
/// Not thread-safe: llama.cpp contexts are not reentrant. It is created, used and freed on
/// `LlamaThread.shared` only, which is what makes the `@unchecked Sendable` sound.
final class LlamaContext: @unchecked Sendable {
    let pointer: OpaquePointer
    let model: LlamaModel
    let contextSize: Int
    let batchSize: Int
    let threads: Int
    /// The model's sliding attention window in tokens (Gemma 3: 512); 0 when it has none.
    let slidingWindow: Int
    /// Whether the sliding-window layers keep a cache of the whole context (see `init`).
    let fullSlidingWindowCache: Bool
    /// `llama_decode` calls made so far (a turn's count is the difference across it).
    private(set) var decodeCalls = 0
    /// A fault made on purpose, to show cache verification catching it; nil in every real run.
    var fault: CacheFault?
    /// The context's workers; released after `deinit` has freed the context.
    private let threadpool: LlamaThreadpool?

    /// `fullSlidingWindowCache`: a full-size cache for a sliding-window model's windowed layers,
    /// which lets a partial `llama_memory_seq_rm` keep any prefix (the context's default). Without
    /// it the windowed layers keep only about the window, as llama-server does by default: less
    /// memory, but a cache trimmed back further than the window is missing the entries the
    /// next tokens attend to (`removeMemory` then refuses).
    init(model: LlamaModel, contextSize: Int, batchSize: Int, threads: Int, fullSlidingWindowCache: Bool = true) throws(LlamaError) {
        var parameters = llama_context_default_params()
        parameters.n_ctx = UInt32(contextSize)
        parameters.n_batch = UInt32(batchSize)
        parameters.n_ubatch = UInt32(min(batchSize, Int(parameters.n_ubatch)))
        parameters.n_threads = Int32(threads)
        parameters.n_threads_batch = Int32(threads)
        parameters.no_perf = true
        parameters.swa_full = fullSlidingWindowCache
        let mark = LlamaLog.mark()
        guard let pointer = EngineCrashReport.engineCall({ llama_init_from_model(model.pointer, parameters) }) else {
            throw LlamaError(
                .contextCreationFailed,
                "could not create a context of \(contextSize) tokens; try a smaller --ctx-size",
                pointOfFailure: "llama_init_from_model", engineLog: LlamaLog.lines(since: mark))
        }
        threadpool = LlamaThreadpool(threads: threads)
        if let threadpool { llama_attach_threadpool(pointer, threadpool.pointer, nil) }
        self.pointer = pointer
        self.model = model
        self.contextSize = Int(llama_n_ctx(pointer))
        self.batchSize = Int(llama_n_batch(pointer))
        self.threads = threads
        self.slidingWindow = max(0, Int(llama_model_n_swa(model.pointer)))
        self.fullSlidingWindowCache = fullSlidingWindowCache
    }

    deinit {
        llama_free(pointer)  // before the threadpool it uses, which is released after this
    }

    private var memory: llama_memory_t? { llama_get_memory(pointer) }

    /// Empties the KV cache.
    func clearMemory() {
        llama_memory_clear(memory, true)
    }

    /// Drops cached positions from `position` on. Returns false when the cache cannot keep the
    /// prefix before `position` usable (the caller must then clear everything): a recurrent
    /// model's memory cannot drop a partial range, and a windowed sliding-window cache may no
    /// longer hold the window before `position` — the test llama-server makes before it
    /// re-processes a whole prompt ("lack of cache data").
    func removeMemory(from position: Int) -> Bool {
        guard llama_memory_seq_rm(memory, 0, llama_pos(position), -1) else { return false }
        guard slidingWindow > 0, !fullSlidingWindowCache, position > 0, fault != .skipWindowCheck else { return true }
        let oldest = Int(llama_memory_seq_pos_min(memory, 0))
        return oldest >= 0 && oldest <= max(0, position - slidingWindow)
    }

    /// Positions of the conversation's sequence the cache holds, as the engine counts them (its
    /// highest position plus one; 0 when empty).
    func cachedPositions() -> Int {
        Int(llama_memory_seq_pos_max(memory, 0)) + 1
    }

    /// Drops the cache entries of positions `range` while the caller goes on counting them as
    /// cached: the `dropReusedEntries` fault, and nothing else.
    func dropEntries(_ range: Range<Int>) {
        _ = llama_memory_seq_rm(memory, 0, llama_pos(range.lowerBound), llama_pos(range.upperBound))
    }

    /// Evaluates `tokens` from index `start` after what is cached, in batches of at most
    /// `callSize` (default `batchSize`); `evaluated` sees each batch's range of `tokens` once it
    /// is in the cache. Returns the llama_decode status of the first failing batch, or 0.
    func decode(
        _ tokens: inout [llama_token], from start: Int = 0, callSize: Int? = nil, evaluated: (Range<Int>) -> Void = { _ in }
    ) -> Int32 {
        var offset = start
        let size = min(max(callSize ?? batchSize, 1), batchSize)
        while offset < tokens.count {
            let count = min(size, tokens.count - offset)
            decodeCalls += 1
            let status = tokens.withUnsafeMutableBufferPointer { buffer in
                EngineCrashReport.engineCall { llama_decode(pointer, llama_batch_get_one(buffer.baseAddress! + offset, Int32(count))) }
            }
            if status != 0 { return status }
            evaluated(offset..<offset + count)
            offset += count
        }
        return 0
    }

    /// Evaluates one token after what is cached.
    func decode(token: llama_token) -> Int32 {
        var token = token
        decodeCalls += 1
        return EngineCrashReport.engineCall { llama_decode(pointer, llama_batch_get_one(&token, 1)) }
    }

    /// Makes `llama_decode` stop between graph nodes — returning 2 — once `flag` is set, so that a
    /// cancelled turn does not sit through a long prefill; nil to never stop. The caller keeps
    /// `flag` alive while it is set (the context holds it unretained).
    func abort(when flag: CancellationFlag?) {
        guard let flag else {
            llama_set_abort_callback(pointer, nil, nil)
            return
        }
        llama_set_abort_callback(
            pointer,
            { data in
                guard let data else { return false }
                return Unmanaged<CancellationFlag>.fromOpaque(data).takeUnretainedValue().isCancelled
            }, Unmanaged.passUnretained(flag).toOpaque())
    }

    /// Waits until all submitted work is finished (so a clock reading after it is honest).
    func synchronize() { llama_synchronize(pointer) }

    /// Logits of the last evaluated token (vocabulary-sized).
    func lastLogits() -> UnsafeMutablePointer<Float>? { llama_get_logits_ith(pointer, -1) }
}
