import ChatEvalCore
import Foundation

/// Turns comparisons into a bisection's readings, and a probe's question into comparison settings.
public enum BisectReadings {
    /// Every signal the endpoints' comparison tells apart: metric regressions (changed) and gated
    /// metrics it could not decide (undecided), checks passing less often, and the exact facts.
    /// A check that changed on exact answers is read as an exact signal, not a pass rate.
    public static func endpoints(_ comparison: Comparison) -> [SignalReading] {
        var readings = comparison.ledger.map(exact) ?? []
        let exactChecks = Set(readings.compactMap { if case .exactCheck(let place) = $0.signal { place } else { nil } })
        for change in comparison.quality.regressions + comparison.quality.undecided {
            let place = BisectSignal.CheckPlace(
                suite: change.suite, conversation: change.conversation, turn: change.turn, position: change.position, check: change.check)
            guard !exactChecks.contains(place) else { continue }
            readings.append(passRate(change, place: place, changed: comparison.quality.regressions.contains(change)))
        }
        for suite in comparison.suites {
            for change in suite.metrics where change.verdict == .regression || change.verdict == .underpowered {
                readings.append(metric(change, suite: suite.name))
            }
        }
        return readings
    }

    /// The exact signals two runs' ledgers tell apart: each suite whose work ledger differs on
    /// some turn, each check that fails on exact answers where it passed.
    public static func exact(_ ledger: LedgerComparison) -> [SignalReading] {
        var readings: [SignalReading] = []
        let bySuite = Dictionary(grouping: ledger.changes, by: \.turn.suite)
        for suite in bySuite.keys.sorted() {
            guard let changes = bySuite[suite], let first = changes.first else { continue }
            let what = first.differences.map { difference in
                "\(difference.name) \(difference.base) → \(difference.head)"
                    + (difference.change.map { " (\($0 > 0 ? "+" : "")\($0))" } ?? "")
            }
            let detail =
                "\(changes.count) turn(s) differ; \(first.turn): "
                + (what.isEmpty ? (first.answer == nil ? "the ledger differs" : "the answer differs") : what.joined(separator: ", "))
                + (first.cause.map { ": \($0)" } ?? "")
            readings.append(SignalReading(signal: .ledger(suite: suite), side: .changed, detail: detail))
        }
        for check in ledger.checks where !check.headPasses {
            let place = BisectSignal.CheckPlace(
                suite: check.turn.suite, conversation: check.turn.conversation, turn: check.turn.turn, position: check.position + 1,
                check: check.check)
            readings.append(
                SignalReading(
                    signal: .exactCheck(place: place), side: .changed,
                    detail: "passed on every replay of the base, fails on every replay of the head (exact answers)"))
        }
        return readings
    }

    /// The reading of `signal` in a paired probe's comparison.
    public static func paired(_ signal: BisectSignal, in comparison: Comparison) -> SignalReading {
        switch signal {
        case .metric(let suite, let metric):
            guard let change = comparison.suites.first(where: { $0.name == suite })?.metrics.first(where: { $0.metric == metric }) else {
                return SignalReading(signal: signal, side: .undecided, detail: ChangeVerdict.notMeasured.words)
            }
            return self.metric(change, suite: suite)
        case .passRate(let place):
            let matches = { (change: CheckChange) in
                change.suite == place.suite && change.conversation == place.conversation && change.turn == place.turn
                    && change.position == place.position
            }
            if let change = comparison.quality.regressions.first(where: matches) { return passRate(change, place: place, changed: true) }
            if let change = comparison.quality.undecided.first(where: matches) { return passRate(change, place: place, changed: false) }
            return SignalReading(signal: signal, side: .same, detail: "Fisher's exact test finds no drop")
        case .ledger, .exactCheck:
            return (comparison.ledger.map(exact) ?? []).first { $0.signal == signal }
                ?? SignalReading(signal: signal, side: .same, detail: "identical")
        }
    }

    /// A probe's comparison settings: the gate's, with the probe's error rate (its intervals at
    /// 1 − it), and gating only what the probe asks — a metric against the threshold given
    /// (relative), or no metric at all for a pass rate.
    public static func settings(for kind: BisectProbe.Kind, from gate: ComparisonSettings) -> ComparisonSettings {
        var settings = gate
        switch kind {
        case .endpoints(let errorRate):
            settings.familyErrorRate = errorRate
        case .exact:
            break
        case .paired(let signal, let threshold, let errorRate):
            settings.familyErrorRate = errorRate
            settings.confidence = 1 - errorRate
            if case .metric(_, let metric) = signal {
                // Never below the gate's own threshold: a change smaller than that is not one to chase.
                let own = gate.thresholds[metric] ?? MetricThreshold(relative: 0.05, absolute: 0)
                settings.thresholds = [metric: MetricThreshold(relative: max(own.relative, threshold ?? 0), absolute: own.absolute)]
                settings.priority = [metric]
            } else {
                settings.thresholds = [:]
                settings.priority = []
            }
        }
        return settings
    }

    /// A metric's verdict as a reading: a regression is changed; unchanged, not worse or better is the same.
    public static func metric(_ change: MetricChange, suite: String) -> SignalReading {
        let side: SignalReading.Side =
            switch change.verdict {
            case .regression: .changed
            case .unchanged, .notWorse, .improvement: .same
            // Nothing decided at the threshold, or a change a commit expected (accepted). Flaky and
            // undecided are counts' verdicts, never a metric's: undecided all the same.
            case .underpowered, .notMeasured, .notGated, .accepted, .flaky, .undecided: .undecided
            }
        return SignalReading(
            signal: .metric(suite: suite, metric: change.metric), side: side, change: change.change, lower: change.changeLower,
            upper: change.changeUpper, detail: "\(change.verdict.words): \(change.reason)")
    }

    private static func passRate(_ change: CheckChange, place: BisectSignal.CheckPlace, changed: Bool) -> SignalReading {
        SignalReading(
            signal: .passRate(place: place), side: changed ? .changed : .undecided,
            detail: "passed \(change.basePassed)/\(change.baseTotal) → \(change.headPassed)/\(change.headTotal)")
    }
}
