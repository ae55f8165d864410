import ChatEvalCore

/// The selection a run was limited to, as given.
public struct SuiteSelectionRecord: Codable, Sendable, Hashable {
    public var patterns: [String]
    public var tags: [String]
    /// Suite path → conversation ids (`suite.yaml#id`).
    public var conversations: [String: [String]]

    public init(patterns: [String], tags: [String], conversations: [String: [String]]) {
        self.patterns = patterns
        self.tags = tags
        self.conversations = conversations
    }
}
