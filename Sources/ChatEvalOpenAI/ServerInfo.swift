import ChatEvalCore
import ChatEvalDigest

/// What a server says about itself.
public struct ServerInfo: Sendable, Hashable {
    /// "llama-server", "vLLM", "Ollama", "mlx_lm.server", or "openai-compatible" when the server
    /// does not say.
    public var engine: String
    /// llama-server's `build_info`.
    public var build: String?
    public var isLlamaServer: Bool
    /// mlx-lm's `mlx_lm.server` (`ServerProbe` says how it is told apart). It batches concurrent
    /// requests only when they carry no `seed`.
    public var isMLXLMServer: Bool
    /// The context window per request (llama-server `n_ctx`, vLLM `max_model_len`).
    public var contextSize: Int?
    /// Parallel slots (llama-server `total_slots`).
    public var slots: Int?
    public var modelBytes: Int?
    public var parameters: Int?
    /// The model as the server describes it (its id, file type).
    public var modelDescription: String
    /// SHA-256 of the chat template the server applies, when it shows it (llama-server `/props`).
    public var chatTemplateHash: String?
    /// Model ids `/v1/models` lists (empty when it lists none or is not served).
    public var models: [String]

    public init(
        engine: String, build: String? = nil, isLlamaServer: Bool = false, isMLXLMServer: Bool = false, contextSize: Int? = nil,
        slots: Int? = nil,
        modelBytes: Int? = nil, parameters: Int? = nil, modelDescription: String, chatTemplateHash: String? = nil, models: [String] = []
    ) {
        self.engine = engine
        self.build = build
        self.isLlamaServer = isLlamaServer
        self.isMLXLMServer = isMLXLMServer
        self.contextSize = contextSize
        self.slots = slots
        self.modelBytes = modelBytes
        self.parameters = parameters
        self.modelDescription = modelDescription
        self.chatTemplateHash = chatTemplateHash
        self.models = models
    }
}
