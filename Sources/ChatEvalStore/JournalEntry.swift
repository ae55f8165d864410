import ChatEvalCore

/// One line of a run's journal: a finished turn and where it belongs.
public struct JournalEntry: Codable, Sendable {
    public var suite: String
    public var conversation: String
    public var repetition: Int
    public var warmup: Bool
    public var turn: ReplayedTurn
    /// 2, 3, ... when the repetition is being measured again (the machine was busy during the
    /// earlier attempt); absent for the first.
    public var attempt: Int?

    public init(suite: String, conversation: String, repetition: Int, warmup: Bool, turn: ReplayedTurn, attempt: Int? = nil) {
        self.suite = suite
        self.conversation = conversation
        self.repetition = repetition
        self.warmup = warmup
        self.turn = turn
        self.attempt = attempt
    }
}
