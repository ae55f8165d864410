/// A whole bisection: the states measured (good first, bad last), every probe, each signal's
/// culprits, and how sure. Plain data; the command line turns it into reports and an exit code.
public struct BisectOutcome: Codable, Sendable {
    public var good: BisectState
    public var bad: BisectState
    public var states: [BisectState]
    /// Commits that changed no input, folded into the state before them (also listed by state).
    public var skipped: [SkippedCommit]
    public var budget: BisectBudget?
    /// The ends replayed once each, greedily, and compared exactly: measured first, its
    /// differences chased before any timing round.
    public var exactEndpoints: BisectProbeLog?
    /// The ends compared in rounds, for everything timed.
    public var endpoints: BisectProbeLog?
    /// Signals whose search the time budget ended (undecided, or with the culprits found so far).
    public var outOfTime: [BisectSignal]?
    /// Why the ends' timings were not compared at all (the time budget ran out before).
    public var timingNotMeasured: String?
    /// Signals that differ between the endpoints, decided or not.
    public var findings: [SignalFinding]
    /// Signals the endpoints could not decide: not chased (named, never guessed).
    public var undecidedAtEndpoints: [SignalReading]
    public var probes: [BisectProbeLog]
    /// True when the bisection was stopped before it finished: what it found so far.
    public var interrupted: Bool

    public init(states: [BisectState], skipped: [SkippedCommit]) {
        good = states.first ?? BisectState(commit: "", shortId: "", subject: "")
        bad = states.last ?? good
        self.states = states
        self.skipped = skipped
        findings = []
        undecidedAtEndpoints = []
        probes = []
        interrupted = false
    }

    /// Probes measured (not read back from an earlier bisection), repetitions per side and
    /// seconds over all probes, the endpoints included.
    public var measured: (probes: Int, repetitions: Int, seconds: Double) {
        let all = (exactEndpoints.map { [$0] } ?? []) + (endpoints.map { [$0] } ?? []) + probes
        let fresh = all.filter { !$0.result.resumed }
        return (fresh.count, all.reduce(0) { $0 + $1.result.repetitions }, fresh.reduce(0) { $0 + $1.result.seconds })
    }

    /// The confidence every culprit named holds at together (1 − the error rate spent).
    public var confidence: Double? { budget.map { 1 - $0.errorRate } }
}
