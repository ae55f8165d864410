/// How session state is used across the turns of a conversation.
public enum CacheMode: String, Codable, Sendable, CaseIterable {
    /// Keep the session between turns, as a chat app does: each turn evaluates only new tokens.
    case session
    /// Forget the session before every turn: each turn evaluates its whole history again.
    case cold
}
