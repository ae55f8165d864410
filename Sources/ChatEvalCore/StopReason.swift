/// Why generation of an answer ended.
public enum StopReason: String, Codable, Sendable, Hashable, CaseIterable {
    /// The model produced an end-of-generation token.
    case endOfGeneration = "eog"
    /// The answer reached `GenerationOptions.maxTokens`.
    case maxTokens = "max_tokens"
    /// A stop string appeared; it is cut from the answer.
    case stopString = "stop_string"
}
