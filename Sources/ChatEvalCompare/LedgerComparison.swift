import ChatEvalCore

/// The exact part of a comparison: per turn, the work ledgers of base and head, compared as
/// facts where both sides repeat exactly (`LedgerDeterminism.isComparable`), with the gate rules
/// that turn a change into a regression. Needs one repetition per side; no statistics, no
/// family correction — and never a verdict on a turn whose ledger varies.
public struct LedgerComparison: Codable, Sendable {
    public var gates: LedgerGates
    /// Turns present on both sides.
    public var turnsCompared: Int
    /// Turns compared exactly (comparable on both sides).
    public var turnsExact: Int
    /// Repetitions per turn on each side (at most).
    public var baseRepetitions: Int
    public var headRepetitions: Int
    /// Turns whose ledger varies (or was sampled once) on a side: named, never compared exactly.
    public var varying: [VaryingTurn]
    /// Exact turns whose ledger or answer differs, in turn order.
    public var changes: [LedgerChange]
    /// Checks whose verdict is constant on each side and differs, on exact answers: certain changes.
    public var checks: [ExactCheckChange]
    /// Work and time apart, per suite: how much work, and how long a unit of it took.
    public var work: [SuiteWork]

    public init(
        gates: LedgerGates, turnsCompared: Int, turnsExact: Int, baseRepetitions: Int, headRepetitions: Int, varying: [VaryingTurn],
        changes: [LedgerChange], checks: [ExactCheckChange], work: [SuiteWork]
    ) {
        self.gates = gates
        self.turnsCompared = turnsCompared
        self.turnsExact = turnsExact
        self.baseRepetitions = baseRepetitions
        self.headRepetitions = headRepetitions
        self.varying = varying
        self.changes = changes
        self.checks = checks
        self.work = work
    }

    /// Changes that a gate rule fails.
    public var regressions: [LedgerChange] { changes.filter { !$0.regressions.isEmpty } }
    /// Checks that passed on every base replay and fail on every head replay.
    public var checkRegressions: [ExactCheckChange] { checks.filter { !$0.headPasses && $0.acceptedBy == nil } }

    /// True when an exact change fails the comparison.
    public var hasRegression: Bool { !regressions.isEmpty || !checkRegressions.isEmpty }

    /// Exact changes (of a turn's work, or of a check) accepted as a head commit expected them.
    public var acceptedChanges: Int {
        changes.filter { $0.accepted?.isEmpty == false }.count + checks.filter { $0.acceptedBy != nil }.count
    }

    /// Exact turns whose answer changed.
    public var answersChanged: [LedgerChange] { changes.filter { $0.answer != nil } }
}

/// A turn whose ledger is not comparable on a side.
public struct VaryingTurn: Codable, Sendable, Hashable {
    public var turn: LedgerTurn
    public var base: LedgerDeterminism
    public var head: LedgerDeterminism
}

/// One exact turn's ledger on both sides, what differs, why, and which rules it breaks.
public struct LedgerChange: Codable, Sendable {
    public var turn: LedgerTurn
    public var base: WorkLedger
    public var head: WorkLedger
    /// The counts that differ, by name (`WorkLedger.counts`), with the stop reason if it changed.
    public var differences: [CountDifference]
    /// The answer's first difference, when the answer changed.
    public var answer: TextDivergence?
    /// Why the work changed, as far as the ledgers and the reuse accounting tell.
    public var cause: String?
    /// Rules this change breaks ("evaluated tokens grew", ...): empty when it only reports.
    public var regressions: [String]
    /// Rules it breaks that a head commit's `ChatEval-Expect` trailer expects: reported, not failed.
    public var accepted: [String]?

    /// The `Expectation` subject of a broken rule.
    public static func subject(ofRule rule: String) -> String? {
        switch rule {
        case "evaluated tokens grew": "evaluated-tokens"
        case "reuse efficiency fell": Metric.reuseEfficiency.name
        case "generated tokens grew": "generated-tokens"
        case "the answer changed": "answers"
        default: nil
        }
    }
}

/// A count on both sides.
public struct CountDifference: Codable, Sendable, Hashable {
    public var name: String
    public var base: String
    public var head: String
    /// head − base for counts; nil for a stop reason or a digest.
    public var change: Int?
}

/// A check whose verdict is the same on every replay of each side and differs between them,
/// on a turn whose answers repeat exactly on both: a certain change at any repetition count.
public struct ExactCheckChange: Codable, Sendable, Hashable {
    public var turn: LedgerTurn
    /// 0-based position among the turn's checks.
    public var position: Int
    public var check: String
    /// True when the check passes on head (and failed on base): an improvement.
    public var headPasses: Bool
    public var baseReplays: Int
    public var headReplays: Int
    public var answer: TextDivergence?
    /// The commit whose `ChatEval-Expect` trailer expects this check to fail: reported, not failed.
    public var acceptedBy: String?
}

/// A suite's work and the time per unit of it, on both sides: a slower TTFT reads as more work
/// (the input's doing) or slower work (the engine's or the machine's).
public struct SuiteWork: Codable, Sendable, Hashable {
    public var suite: String
    /// Evaluated and generated tokens of one replay of every conversation (the first repetition).
    public var baseEvaluated: Int
    public var headEvaluated: Int
    public var baseGenerated: Int
    public var headGenerated: Int
    /// Medians over every turn and repetition, in seconds; nil when no turn measured it.
    public var basePrefillPerToken: Double?
    public var headPrefillPerToken: Double?
    public var baseDecodePerToken: Double?
    public var headDecodePerToken: Double?
}
