/// The values a template placeholder can name while a conversation runs.
public struct ConversationVariables: Sendable {
    public var variables: [String: String]
    public private(set) var userMessages: [String] = []
    public private(set) var answers: [String] = []

    public init(variables: [String: String]) {
        self.variables = variables
    }

    /// Makes `turn` the next one placeholders can quote: `{{turnN.user}}` is the user message as
    /// sent, `{{turnN.answer}}` the answer, or empty text when the turn has none (it failed or
    /// was skipped). The one definition the replayer, the grader and answer files share.
    public mutating func record(_ turn: ReplayedTurn) {
        userMessages.append(turn.user)
        answers.append(turn.answer ?? "")
    }

    /// `vars.NAME`, `turnN.answer`, `turnN.user` (N from 1), or nil when unknown or not yet known.
    public func value(of name: String) -> String? {
        if name.hasPrefix("vars.") { return variables[String(name.dropFirst(5))] }
        guard let reference = TurnReference(name) else { return nil }
        let list = reference.field == .answer ? answers : userMessages
        return reference.turn <= list.count ? list[reference.turn - 1] : nil
    }
}
