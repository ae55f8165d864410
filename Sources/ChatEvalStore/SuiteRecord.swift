import ChatEvalCore

public struct SuiteRecord: Codable, Sendable {
    public var name: String
    public var path: String
    /// The suite's one-line description.
    public var description: String?
    public var conversations: [ConversationRecord]
    /// Outcomes of the suite's gates, evaluated at the end of the run over measured replays.
    public var gates: [GateOutcome]
    /// The suite's own comparison thresholds (its `compare:` section), applied when this run
    /// is the head of a comparison.
    public var comparison: ComparisonOverrides?
    /// The suite file's text, kept in a shard's record so that `chateval merge` can grade the
    /// whole run's gates without the files; nil otherwise.
    public var text: String?

    public init(
        name: String, path: String, description: String? = nil, conversations: [ConversationRecord] = [],
        gates: [GateOutcome] = [], comparison: ComparisonOverrides? = nil, text: String? = nil
    ) {
        self.name = name
        self.description = description
        self.path = path
        self.conversations = conversations
        self.gates = gates
        self.comparison = comparison
        self.text = text
    }

    /// Verdicts of every check of the measured replays (turn and conversation checks).
    public var measuredVerdicts: [Verdict] {
        conversations.filter(\.isMeasured).flatMap(\.verdicts)
    }

    /// Metrics of every answered turn of the measured (not warm-up, not left out) conversations.
    public var measuredTurns: [TurnMetrics] {
        conversations.filter(\.isMeasured).flatMap { $0.turns.compactMap(\.metrics) }
    }
}
