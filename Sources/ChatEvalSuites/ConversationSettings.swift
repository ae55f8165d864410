import ChatEvalCore

/// The settings a conversation runs with; every field optional so that defaults and overrides
/// overlay each other.
struct ConversationSettings {
    var system: String?
    var maxTokens: Int?
    var temperature: Double?
    var topP: Double?
    var topK: Int?
    var seed: UInt32?
    var stop: [String]?
    var maxMessages: Int?
    var variables: [String: String] = [:]

    static let keys = ["system", "max_tokens", "temperature", "top_p", "top_k", "seed", "stop", "max_messages", "vars"]

    /// `self` with every field `other` sets replaced (variables merged).
    func overlaid(with other: ConversationSettings) -> ConversationSettings {
        ConversationSettings(
            system: other.system ?? system, maxTokens: other.maxTokens ?? maxTokens,
            temperature: other.temperature ?? temperature, topP: other.topP ?? topP, topK: other.topK ?? topK,
            seed: other.seed ?? seed, stop: other.stop ?? stop, maxMessages: other.maxMessages ?? maxMessages,
            variables: variables.merging(other.variables) { $1 })
    }

    var options: GenerationOptions {
        let base = GenerationOptions()
        return GenerationOptions(
            maxTokens: maxTokens ?? base.maxTokens, temperature: temperature ?? base.temperature,
            topP: topP ?? base.topP, topK: topK ?? base.topK, seed: seed ?? base.seed, stop: stop ?? base.stop)
    }
}
