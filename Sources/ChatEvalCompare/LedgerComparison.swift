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
    /// Turns compared exactly, per suite (nil in comparisons written before the field).
    public var exactTurnsBySuite: [String: Int]?
    /// Why the exact rules are reported and never gated — the sides computed with different
    /// arithmetic (`ReplayArithmetic`), or were not measured alike and are compared anyway
    /// (`--allow-mismatch`); nil when they gate.
    public var notGated: String?
    /// The settings the sides were run with that differ ("threads 2 → 1", "model a.gguf → b.gguf
    /// (sha256 …)"): named as the cause of every change; nil when none do.
    public var settingChanges: [String]?

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

    /// Changes that a gate rule fails (none while the rules are not gated: `notGated`).
    public var regressions: [LedgerChange] { notGated != nil ? [] : brokenRules }
    /// Checks that passed on every base replay and fail on every head replay (none while not gated).
    public var checkRegressions: [ExactCheckChange] { notGated != nil ? [] : checksBroken }
    /// Changes that break a gate rule, gated or not.
    public var brokenRules: [LedgerChange] { changes.filter { !$0.regressions.isEmpty } }
    /// Checks that passed on every base replay and fail on every head replay, not accepted, gated or not.
    public var checksBroken: [ExactCheckChange] { checks.filter { !$0.headPasses && $0.acceptedBy == nil } }

    /// True when an exact change fails the comparison.
    public var hasRegression: Bool { !regressions.isEmpty || !checkRegressions.isEmpty }

    /// Exact changes (of a turn's work, or of a check) accepted as a head commit expected them.
    public var acceptedChanges: Int {
        changes.filter { $0.accepted?.isEmpty == false }.count + checks.filter { $0.acceptedBy != nil }.count
    }

    /// Exact turns whose answer changed.
    public var answersChanged: [LedgerChange] { changes.filter { $0.answer != nil } }
}
