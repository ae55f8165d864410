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
