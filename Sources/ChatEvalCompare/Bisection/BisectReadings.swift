import ChatEvalCore
import ChatEvalStore
import Foundation

/// Turns comparisons into a bisection's readings, and a probe's question into comparison settings.
public enum BisectReadings {
    /// Every signal the endpoints' comparison tells apart: metric regressions (changed) and gated
    /// metrics it could not decide (undecided), checks passing less often, and the exact facts.
    /// A check that changed on exact answers is read as an exact signal, not a pass rate.
    public static func endpoints(_ comparison: Comparison) -> [SignalReading] {
        var readings = comparison.ledger.map(exact) ?? []
        // Facts of another arithmetic are not the code's: named, never chased as facts.
        if let reason = comparison.ledger?.notGated {
            readings = readings.map { SignalReading(signal: $0.signal, side: .undecided, detail: "\($0.detail) — not gated: \(reason)") }
        }
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
        return readings.map { annotated($0, by: comparison) }
    }

    /// `reading` with what its comparison says beside it: the settings the commits differ in
    /// ("threads 2 → 1": a culprit's change is named with it), and, for a timed signal left
    /// undecided, how busy the machine was.
    static func annotated(_ reading: SignalReading, by comparison: Comparison) -> SignalReading {
        var reading = reading
        let settings = settingChanges(comparison)
        if !settings.isEmpty, !reading.detail.contains(settings[0]) {
            reading.detail += "; the commits' settings differ: " + settings.joined(separator: ", ")
        }
        if reading.side == .undecided, !reading.signal.isExact, let busy = busyNote(comparison.load) { reading.detail += "; " + busy }
        return reading
    }

    /// What the ends' `comparison` says beside its readings, so that "nothing to chase" is never
    /// read as "the commits are alike": the settings they differ in ("threads 2 → 1"), each metric
    /// better at the bad end (a bisection chases only what got worse), and how busy the machine
    /// was (`busyNote`). Empty when there is nothing to add.
    public static func endpointNotes(_ comparison: Comparison) -> [String] {
        var notes: [String] = []
        let settings = settingChanges(comparison)
        if !settings.isEmpty { notes.append("the commits' settings differ: " + settings.joined(separator: ", ")) }
        let better = comparison.suites.flatMap { suite in
            suite.metrics.filter { $0.verdict == .improvement }.map { "\(suite.name): \($0.metric.name)" }
        }
        if !better.isEmpty { notes.append("better at the bad end: " + better.joined(separator: ", ")) }
        if let busy = busyNote(comparison.load) { notes.append(busy) }
        return notes
    }

    /// The settings the commits changed on purpose (from their project files), as "threads 2 → 1".
    private static func settingChanges(_ comparison: Comparison) -> [String] {
        comparison.differences.filter { $0.isCommitDetermined }.map { "\($0.field) \($0.base) → \($0.head)" }
    }

    /// "other processes used 1.90 cores on average during 220 replays, 212 left out or measured
    /// again": why timings could not decide, when the machine was busy; nil when it was not.
    static func busyNote(_ load: LoadComparison) -> String? {
        let sampled = load.base.sampled + load.head.sampled
        let disturbed = load.base.leftOut + load.head.leftOut + load.base.remeasured + load.head.remeasured
        let means = [load.base.meanOtherCores, load.head.meanOtherCores].compactMap { $0 }
        guard sampled > 0, !means.isEmpty else { return nil }
        let mean = means.reduce(0, +) / Double(means.count)
        guard mean >= ComparisonSettings.defaultBusyThreshold || disturbed > 0 else { return nil }
        return String(format: "other processes used %.2f cores on average during %d replays", mean, sampled)
            + (disturbed > 0 ? ", \(disturbed) left out or measured again" : "")
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

    /// The reading of `signal` in a paired probe's comparison of the records `base` and `head`.
    /// A pass rate drop is `changed` when the family's test shows it, `same` only when the probe
    /// rules out a drop of `threshold` or more (`passRateEquivalence`), undecided otherwise.
    public static func paired(
        _ signal: BisectSignal, threshold: Double?, in comparison: Comparison, base: [RunRecord], head: [RunRecord]
    ) -> SignalReading {
        annotated(pairedReading(signal, threshold: threshold, in: comparison, base: base, head: head), by: comparison)
    }

    private static func pairedReading(
        _ signal: BisectSignal, threshold: Double?, in comparison: Comparison, base: [RunRecord], head: [RunRecord]
    ) -> SignalReading {
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
            return passRateEquivalence(
                place, drop: threshold, errorRate: 1 - comparison.design.confidence, base: base, head: head)
        case .ledger, .exactCheck:
            guard let ledger = comparison.ledger else {
                return SignalReading(signal: signal, side: .undecided, detail: "the probe compared no ledger")
            }
            return ExactScope(ledger).reading(of: signal, changed: exact(ledger))
        }
    }

    /// A pass rate's "no drop of `drop` or more", decided as an equivalence: the head's pass rate
    /// less the base's is at least its lower bound, the head's Clopper–Pearson lower bound less
    /// the base's upper bound, each at `errorRate` / 2 one-sided (so the difference's bound holds
    /// with probability 1 − `errorRate` by the union bound, at any count); `same` when that bound
    /// is above −`drop`. Without a drop to rule out, or with the bound below it, undecided: a
    /// test that found no drop has not shown there is none.
    public static func passRateEquivalence(
        _ place: BisectSignal.CheckPlace, drop: Double?, errorRate: Double, base: [RunRecord], head: [RunRecord]
    ) -> SignalReading {
        let signal = BisectSignal.passRate(place: place)
        let key = QualityComparator.CheckKey(
            suite: place.suite, conversation: place.conversation, turn: place.turn.map { $0 - 1 }, position: place.position - 1,
            check: place.check)
        guard let b = QualityComparator.checkTallies(base)[key], let h = QualityComparator.checkTallies(head)[key],
            b.total > 0, h.total > 0
        else { return SignalReading(signal: signal, side: .undecided, detail: "the check was not measured on both sides") }
        let counts = "passed \(b.passed)/\(b.total) → \(h.passed)/\(h.total)"
        guard let drop, drop > 0, errorRate > 0,
            let headBound = ClopperPearson(successes: h.passed, trials: h.total, confidence: 1 - errorRate),
            let baseBound = ClopperPearson(successes: b.passed, trials: b.total, confidence: 1 - errorRate)
        else { return SignalReading(signal: signal, side: .undecided, detail: "\(counts): no drop shown, none ruled out") }
        let lower = headBound.lower - baseBound.upper
        let rate = Double(h.passed) / Double(h.total) - Double(b.passed) / Double(b.total)
        let bound = String(format: "%+.2f", lower), limit = String(format: "%.2f", drop)
        guard lower > -drop else {
            return SignalReading(
                signal: signal, side: .undecided, change: rate, lower: lower,
                detail: "\(counts): no drop shown, and one of \(limit) or more not ruled out (difference ≥ \(bound))")
        }
        return SignalReading(
            signal: signal, side: .same, change: rate, lower: lower,
            detail: "\(counts): a drop of \(limit) or more ruled out (difference ≥ \(bound))")
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

    /// A pass rate's change as a reading; `change` is the head's rate less the base's (negative: a drop).
    private static func passRate(_ change: CheckChange, place: BisectSignal.CheckPlace, changed: Bool) -> SignalReading {
        SignalReading(
            signal: .passRate(place: place), side: changed ? .changed : .undecided, change: change.rateDifference,
            detail: "passed \(change.basePassed)/\(change.baseTotal) → \(change.headPassed)/\(change.headTotal)")
    }
}
