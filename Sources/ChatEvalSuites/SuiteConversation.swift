import ChatEvalCore

public struct SuiteConversation: Sendable, Hashable {
    public var id: String
    public var description: String?
    public var tags: [String]
    /// What to replay (system prompt, options, history window, user messages).
    public var script: ConversationScript
    /// The checks of each turn, in turn order (as many lists as user messages).
    public var turnChecks: [[CheckDefinition]]
    /// Checks of the whole conversation (performance over all its turns), graded with the last turn.
    public var checks: [CheckDefinition]
    /// The suite variant this copy of the conversation runs under (its `id` is then
    /// "conversation@variant"); nil in a suite without `variants:`.
    public var variant: String?

    /// The id as written in the suite, without "@variant".
    public var baseID: String {
        guard let variant, id.hasSuffix("@" + variant) else { return id }
        return String(id.dropLast(variant.count + 1))
    }

    public init(
        id: String, description: String? = nil, tags: [String] = [], script: ConversationScript,
        turnChecks: [[CheckDefinition]]? = nil, checks: [CheckDefinition] = []
    ) {
        self.id = id
        self.description = description
        self.tags = tags
        self.script = script
        self.turnChecks = turnChecks ?? Array(repeating: [], count: script.userMessages.count)
        self.checks = checks
    }
}
