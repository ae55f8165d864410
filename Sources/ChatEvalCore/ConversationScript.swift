/// What to replay: a conversation's system prompt, generation options and user messages.
///
/// User messages are templates: `{{turnN.answer}}` and `{{turnN.user}}` (1-based, earlier turns
/// only) and `{{vars.NAME}}` are filled in as the conversation runs.
public struct ConversationScript: Sendable, Hashable {
    public var id: String
    public var systemPrompt: String?
    public var options: GenerationOptions
    /// How many of the latest user/assistant messages are sent each turn (the new user message
    /// included), as chat apps prune history; nil sends the whole history. The system prompt is
    /// always sent.
    public var maxMessages: Int?
    public var variables: [String: String]
    public var userMessages: [TemplateText]

    public init(
        id: String, systemPrompt: String? = nil, options: GenerationOptions = GenerationOptions(),
        maxMessages: Int? = nil, variables: [String: String] = [:], userMessages: [TemplateText]
    ) {
        self.id = id
        self.systemPrompt = systemPrompt
        self.options = options
        self.maxMessages = maxMessages
        self.variables = variables
        self.userMessages = userMessages
    }

    /// The messages sent for a turn: the system prompt, then the window of the latest history.
    public func messagesToSend(history: [ChatMessage]) -> [ChatMessage] {
        var window = history[...]
        if let maxMessages, window.count > maxMessages {
            window = window.suffix(maxMessages)
        }
        let system = systemPrompt.map { [ChatMessage.system($0)] } ?? []
        return system + window
    }
}

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

/// A placeholder naming an earlier turn: `turnN.answer` or `turnN.user`, N from 1.
public struct TurnReference: Sendable, Hashable {
    public enum Field: String, Sendable { case answer, user }
    public var turn: Int
    public var field: Field

    public init?(_ name: String) {
        guard name.hasPrefix("turn"), let dot = name.firstIndex(of: ".") else { return nil }
        guard let turn = Int(name[name.index(name.startIndex, offsetBy: 4)..<dot]), turn >= 1,
            let field = Field(rawValue: String(name[name.index(after: dot)...]))
        else { return nil }
        self.turn = turn
        self.field = field
    }
}
