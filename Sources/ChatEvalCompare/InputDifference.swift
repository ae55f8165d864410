import ChatEvalCore
import ChatEvalStore

/// What a conversation sent differently on head than on base — the inputs a commit can change
/// (its suites' system prompts, user messages, generation options, checks) — so that a
/// comparison says, next to what moved, what changed that could have moved it. Read from the
/// records' first measured replay of each conversation on each side. A user message that quotes
/// an earlier answer (`{{turn1.answer}}`) differs whenever that answer does: it is reported with
/// both texts, and the reader tells the changed input from the changed output.
public struct InputDifference: Codable, Sendable, Hashable {
    public enum Field: String, Codable, Sendable, Hashable {
        case systemPrompt = "system_prompt"
        case userMessage = "user_message"
        case options
        case checks
        case turns
        case conversation
    }

    public var suite: String
    public var conversation: String
    /// 1-based, for a user message or a turn's checks.
    public var turn: Int?
    public var field: Field
    /// Short excerpts of each side's value (around the first difference for long texts).
    public var base: String
    public var head: String

    /// One line: "memory/pet-name: system prompt "Be brief." → "Be brief. Today is …"".
    public var description: String {
        let place = "\(suite)/\(conversation)" + (turn.map { " turn \($0)" } ?? "")
        let what: String =
            switch field {
            case .systemPrompt: "system prompt"
            case .userMessage: "user message"
            case .options: "generation options"
            case .checks: "checks"
            case .turns: "turns"
            case .conversation: "conversation"
            }
        return "\(place): \(what) \(base) → \(head)"
    }
}
