import Foundation

/// How a bisection spends its error rate. The bisection is one family of decisions: the
/// endpoints' comparison spends half of `errorRate`; the other half is shared equally by every
/// probe the bisection may make of a signal decided by a test (pass rates and metrics), so the
/// probes are many looks of one test — Bonferroni over the most probes a bisection of `states`
/// states can take (`probesPerSignal`). Exact signals spend nothing: one repetition of greedy
/// replays under one arithmetic is a fact, and a probe that cannot compare a turn exactly reads
/// it undecided. Each probe's own rounds spend its share across their looks
/// (`SequentialDesign`), and its "same" verdict rests on an interval at 1 − share — for a metric,
/// within half the endpoints' change; for a pass rate, a drop of half the endpoints' ruled out
/// (`BisectReadings.passRateEquivalence`) — so a probe errs either way with probability at most
/// `perProbe`, and, if each signal steps as `Bisector` assumes, every culprit named is right with
/// probability at least 1 − `errorRate`.
public struct BisectBudget: Codable, Sendable, Hashable {
    public var errorRate: Double
    /// Signals decided by a test.
    public var testedSignals: Int
    /// The most probes one signal's chase can take: per culprit a binary search (⌈log₂
    /// intervals⌉) and its confirmation against the state before it, and the two checks for a
    /// further step beside the first culprit.
    public var probesPerSignal: Int

    public init(errorRate: Double, testedSignals: Int, intervals: Int, culpritsPerSignal: Int) {
        self.errorRate = errorRate
        self.testedSignals = testedSignals
        let search = Int(ceil(log2(Double(max(intervals, 1)))))
        probesPerSignal = max(1, culpritsPerSignal * (search + 1) + (culpritsPerSignal > 1 ? 2 : 0))
    }

    /// The endpoints' share.
    public var endpoints: Double { errorRate / 2 }

    /// Each tested probe's share.
    public var perProbe: Double { errorRate / 2 / Double(max(1, testedSignals * probesPerSignal)) }
}
