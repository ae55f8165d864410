/// A server's own account of one turn, as far as it gives one (llama-server's `timings`, the
/// OpenAI `usage` block, a load balancer's response header). Absent figures are unknown, never 0.
public struct ServerFigures: Codable, Sendable, Hashable {
    /// Prompt tokens the server evaluated (llama-server `timings.prompt_n`).
    public var promptEvaluatedTokens: Int?
    /// Prompt tokens the server served from its cache (`timings.cache_n`, else
    /// `usage.prompt_tokens_details.cached_tokens`).
    public var cachedTokens: Int?
    /// Server-side prompt evaluation time, in seconds (`timings.prompt_ms`).
    public var prefillTime: Double?
    /// Server-side prompt evaluation rate (`timings.prompt_per_second`).
    public var prefillTokensPerSecond: Double?
    /// Tokens the server generated (`timings.predicted_n`).
    public var generatedTokens: Int?
    /// Server-side generation time, in seconds (`timings.predicted_ms`).
    public var decodeTime: Double?
    /// Server-side generation rate (`timings.predicted_per_second`).
    public var decodeTokensPerSecond: Double?
    /// The backend that served the turn, as the response named it (a load balancer's header).
    public var backend: String?
    /// False when the server sent no `usage`: the generated-token count is then the number of
    /// streamed text pieces and the prompt-token count is unknown (recorded as 0).
    public var usageReported: Bool
    /// Streamed pieces of text (content deltas): the inter-token latencies are the gaps between them.
    public var contentDeltas: Int
    /// True when the server went on past the request's `max_tokens` and ChatEval stopped reading
    /// (the answer is what arrived up to the bound; the turn's stop reason is `max_tokens`).
    public var cutAtMaxTokens: Bool?
    /// Figures the server gave that contradict each other, each saying how it was read: more
    /// tokens served from the cache than the prompt holds are counted as the whole prompt (the
    /// server's own figure stays in `cachedTokens`). Absent when the figures agree.
    public var contradictions: [String]?

    public init(
        promptEvaluatedTokens: Int? = nil, cachedTokens: Int? = nil, prefillTime: Double? = nil, prefillTokensPerSecond: Double? = nil,
        generatedTokens: Int? = nil, decodeTime: Double? = nil, decodeTokensPerSecond: Double? = nil, backend: String? = nil,
        usageReported: Bool, contentDeltas: Int
    ) {
        self.promptEvaluatedTokens = promptEvaluatedTokens
        self.cachedTokens = cachedTokens
        self.prefillTime = prefillTime
        self.prefillTokensPerSecond = prefillTokensPerSecond
        self.generatedTokens = generatedTokens
        self.decodeTime = decodeTime
        self.decodeTokensPerSecond = decodeTokensPerSecond
        self.backend = backend
        self.usageReported = usageReported
        self.contentDeltas = contentDeltas
    }
}
