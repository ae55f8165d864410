import ChatEvalCore

/// A prompt suite as loaded from `suites/*.yaml`: conversations to replay, with settings resolved
/// (suite defaults overlaid by each conversation's overrides).
public struct Suite: Sendable, Hashable {
    public var name: String
    public var description: String?
    /// The file it was loaded from.
    public var path: String
    public var conversations: [SuiteConversation]
    public var gates: SuiteGates
    /// The suite's own comparison thresholds (`compare:`), over the project file's.
    public var comparison: ComparisonOverrides?
    /// Latency objectives under load (`slo:`), for goodput (`run --concurrency`).
    public var slo: ServiceLevelObjectives?
    /// The YAML it was parsed from, as read (kept in a run's journal so that `recover` grades
    /// with the very suite the run used).
    public var text: String
    /// Valid but suspicious definitions (a check that can never fail, a bound whose unit looks
    /// mistaken), located; the suite runs as written.
    public var warnings: [SuiteError] = []
    /// The ids of the suite's `variants:`, in order: every conversation runs once under each
    /// (empty without variants).
    public var variants: [String] = []

    public init(
        name: String, description: String? = nil, path: String, conversations: [SuiteConversation], gates: SuiteGates = SuiteGates(),
        comparison: ComparisonOverrides? = nil, slo: ServiceLevelObjectives? = nil, text: String = ""
    ) {
        self.text = text
        self.slo = slo
        self.name = name
        self.description = description
        self.path = path
        self.conversations = conversations
        self.gates = gates
        self.comparison = comparison
    }

    public var checkCount: Int {
        conversations.reduce(0) { $0 + $1.checks.count + $1.turnChecks.reduce(0) { $0 + $1.count } }
    }

    public var turnCount: Int { conversations.reduce(0) { $0 + $1.script.userMessages.count } }

    /// The suite as it replays and grades, without what only its source holds: the text it was
    /// parsed from, its warnings and where each check is written. Two suites equal here replay
    /// the same prompts and grade with the same checks, so an edit of comments, quoting or layout
    /// leaves this unchanged (bisect folds such a commit instead of measuring it).
    public var replayed: Suite {
        var suite = self
        suite.text = ""
        suite.warnings = []
        for index in suite.conversations.indices {
            suite.conversations[index].checks = suite.conversations[index].checks.map(\.unlocated)
            suite.conversations[index].turnChecks = suite.conversations[index].turnChecks.map { $0.map(\.unlocated) }
        }
        return suite
    }
}
