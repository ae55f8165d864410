/// Who speaks a message in a chat.
public enum ChatRole: String, Codable, Sendable, Hashable, CaseIterable {
    case system
    case user
    case assistant
}
