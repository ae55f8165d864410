import ChatEvalCore
import Foundation

extension RunComparator {
    /// The verdict on one tested change, with its reason: not measured (a side has no values), not
    /// gated (no threshold), underpowered (too few replays, or undecided at this look), or decided
    /// — regression, improvement, unchanged or not worse. `decision` is the family's (nil when the
    /// test was left out of it), `familySize` the tests it was adjusted over.
    static func verdict(
        for test: TestedChange, decision: MultipleTesting.Decision?, familySize: Int, level: Level,
        settings: ComparisonSettings
    ) -> MetricChange {
        var change = unmeasuredChange(test)
        guard let measured = test.shift, let baseMedian = change.baseMedian else {
            change.reason = notMeasuredReason(test)
            return change
        }
        let relative = change.scale == .relative
        // Separately recorded runs: the interval widened by the runs' own offset (`RunToRunSpread`),
        // and the shift tested against that offset and the replays' own error together.
        var runError: Double?, runBound: Double?
        var shift = measured
        if relative, let term = level.runTerm,
            let error = term.spread.standardError(test.metric, baseRuns: term.baseRuns, headRuns: term.headRuns)
        {
            runError = error
            shift = widened(measured, by: error, tail: level.tail)
            let withinRun = withinRunError(measured, tail: level.tail)
            let worse = test.metric.polarity == .smallerIsBetter ? measured.estimate > 0 : measured.estimate < 0
            runBound = runTermBound(term, metric: test.metric, withinRun: withinRun, alpha: level.alpha, worse: worse)
            // The floor reported: the smallest change toward worse this comparison could call.
            change.runFloor = runTermBound(term, metric: test.metric, withinRun: withinRun, alpha: level.alpha, worse: true).map {
                let sign = test.metric.polarity == .smallerIsBetter ? 1.0 : -1.0
                return $0.isFinite ? expm1(sign * $0) : sign * .infinity
            }
        }
        let evidence = ShiftEvidence(
            test: test, shift: shift, decision: decision, familySize: familySize, level: level, relative: relative, runError: runError,
            runBound: runBound)
        evidence.record(in: &change)
        guard let threshold = settings.thresholds[test.metric] else {
            change.verdict = .notGated
            change.reason = "no threshold for \(test.metric.name): shown, \(ChangeVerdict.notGated.words)"
            return change
        }
        let bound = relative ? threshold.relativeBound(atBase: baseMedian) : max(threshold.absolute, threshold.relative * baseMedian)
        change.threshold = bound
        if min(shift.baseCount, shift.headCount) < settings.minimumSamples {
            evidence.tooFewReplays(bound: bound, minimumSamples: settings.minimumSamples, in: &change)
        } else if !evidence.decide(bound: bound, in: &change) {
            evidence.undecided(bound: bound, in: &change)
        }
        return change
    }

    /// The change's medians, counts and scale, its verdict not measured yet.
    private static func unmeasuredChange(_ test: TestedChange) -> MetricChange {
        var change = MetricChange(
            metric: test.metric, baseMedian: Distribution(test.baseValues)?.median, headMedian: Distribution(test.headValues)?.median,
            baseCount: test.shift?.baseCount ?? 0, headCount: test.shift?.headCount ?? 0,
            scale: comparesDifferences(test.metric) ? .absolute : .relative, verdict: .notMeasured, reason: "")
        change.baseTypical = test.typicalTurn?.base
        change.headTypical = test.typicalTurn?.head
        return change
    }

    /// Why a change has no verdict: the side (or sides) without values, and the replays a busy
    /// machine left out.
    private static func notMeasuredReason(_ test: TestedChange) -> String {
        let sides = test.baseValues.isEmpty && test.headValues.isEmpty ? "either side" : test.baseValues.isEmpty ? "base" : "head"
        var reason = "\(ChangeVerdict.notMeasured.words) on \(sides)"
        if test.leftOut > 0 { reason += " (\(test.leftOut) replays left out: other processes held the cores)" }
        return reason
    }

    /// The within-run standard error of a shift, log scale: its interval's width over 2·z, z at the
    /// interval's one-sided `tail` — the error the replays themselves leave, read from the same
    /// inverted rank test that decides the shift (exact where enumerated, so at a few replays its
    /// discreteness widens it rather than hiding it). The test's p-value would give an error only
    /// through the normal approximation the exact test avoids, and none at all where the shift is
    /// 0. Infinite when the replays cannot bound the shift: then no run term can be passed.
    static func withinRunError(_ shift: RankShift, tail: Double) -> Double {
        guard shift.lower.isFinite, shift.upper.isFinite else { return .infinity }
        return (shift.upper - shift.lower) / (2 * RankShift.normalQuantile(1 - tail))
    }

    /// The shift (log scale, a magnitude) a change toward worse (or better) must pass for
    /// separately recorded runs to call it: the run offsets and `withinRun` together, at the
    /// family's rate shared by the run term's tests (`RunToRunSpread.callableShift`).
    static func runTermBound(
        _ term: (spread: RunToRunSpread, baseRuns: Int, headRuns: Int, tests: Int), metric: Metric, withinRun: Double, alpha: Double,
        worse: Bool
    ) -> Double? {
        term.spread.callableShift(
            metric, baseRuns: term.baseRuns, headRuns: term.headRuns, withinRun: withinRun, rate: alpha / Double(max(term.tests, 1)),
            worse: worse)
    }

    /// `shift` with its interval widened by the run-to-run standard error `runError` (each half
    /// width and z·error added in quadrature, z at the interval's one-sided `tail`). With each
    /// half width h = z·se, the widened one is z·√(se² + runError²): the normal part of the
    /// error `runTermBound` tests the shift against, at the interval's level instead of the
    /// family's. (The heavy tail of disturbed runs is left out here: at a 95% interval it would
    /// take every "unchanged" from separately recorded runs; it bounds only what they can call.)
    private static func widened(_ shift: RankShift, by runError: Double, tail: Double) -> RankShift {
        var widened = shift
        let z = RankShift.normalQuantile(1 - tail)
        let widen = { (halfWidth: Double) in (halfWidth * halfWidth + z * z * runError * runError).squareRoot() }
        widened.lower = shift.estimate - widen(shift.estimate - shift.lower)
        widened.upper = shift.estimate + widen(shift.upper - shift.estimate)
        return widened
    }
}

/// What a gated change's verdict weighs: its shift on the compared scale (log for relative
/// metrics) and as reported, the family's decision on it, the look's levels and, for separately
/// recorded runs, their run-to-run standard error.
private struct ShiftEvidence {
    var test: RunComparator.TestedChange
    var shift: RankShift
    var decision: MultipleTesting.Decision?
    var familySize: Int
    var level: RunComparator.Level
    /// True when the metric compares as a ratio (a log shift, reported as a relative change).
    var relative: Bool
    var runError: Double?
    /// For separately recorded runs: the shift, toward the estimate's side, that the run term
    /// and the within-run error leave at the family's rate (`RunComparator.runTermBound`).
    var runBound: Double?

    /// A value on the compared scale, on the reported one.
    func reported(_ value: Double) -> Double { relative ? expm1(value) : value }
    var estimate: Double { reported(shift.estimate) }
    var lower: Double { reported(shift.lower) }
    var upper: Double { reported(shift.upper) }
    var significant: Bool { decision?.significant == true }
    /// The interval excludes "no change" on the estimate's side: a verdict never rests on an
    /// interval that holds 0, whatever the p-value's approximation said.
    var excludesZero: Bool { (estimate > 0 && lower > 0) || (estimate < 0 && upper < 0) }
    var confidence: String { RunComparator.percent(level.confidence) }
    /// The threshold `bound` on the compared scale.
    func scaleBound(_ bound: Double) -> Double { relative ? log1p(bound) : bound }

    /// "run-to-run spread 3.0%, the stated default, 8% of runs 13–18% off; here a change needs
    /// +30.9%": the run term a change of separately recorded runs did not pass.
    var runTermText: String {
        guard let spread = level.runTerm?.spread else { return "" }
        var text = String(format: "run-to-run spread %.1f%%, ", (spread.spreads[test.metric] ?? 0) * 100)
        text += spread.source == .history ? "from the base's history" : "the stated default"
        if let tail = spread.heavyTail, RunToRunSpread.HeavyTail.applies(to: test.metric) {
            text += String(format: ", %.0f%% of runs %.0f–%.0f%% off", tail.share * 100, tail.smallest * 100, tail.largest * 100)
        }
        if let runBound {
            text += String(format: "; here a change needs %+.1f%%", reported(shift.estimate > 0 ? runBound : -runBound) * 100)
        }
        return text
    }

    /// Writes the shift into `change`: the change and its interval as reported, the p-values, the
    /// replays' spread and strata.
    func record(in change: inout MetricChange) {
        change.change = estimate
        change.changeLower = lower
        change.changeUpper = upper
        change.pValue = shift.pValue
        change.minimumPValue = shift.minimumPValue
        change.replaySpread = test.spread
        change.strata = shift.strata
        change.adjustedPValue = decision?.adjustedPValue
    }

    /// The repetitions per side likely to decide at `bound` (at least one more than measured).
    func forecast(bound: Double) -> Int? {
        RepetitionForecast.repetitions(
            spread: test.spread, strata: shift.strata, estimate: shift.estimate, bound: scaleBound(bound),
            familyLevel: level.alpha / Double(max(familySize, 1)), intervalTail: level.tail
        ).map { max($0, test.repetitions + 1) }
    }

    /// Underpowered: fewer replays on a side than the settings' `minimumSamples`.
    func tooFewReplays(bound: Double, minimumSamples: Int, in change: inout MetricChange) {
        let minimum = min(shift.baseCount, shift.headCount)
        change.verdict = .underpowered
        change.reason =
            shift.minimumPValue >= 1
            ? "\(shift.baseCount) and \(shift.headCount) replays: no arrangement of them could show a change"
            : "\(minimum) replays on one side; the settings ask for at least \(minimumSamples)"
        change.repetitionsNeeded = forecast(bound: bound)
    }

    /// Decides `change` where the evidence does — a change within the runs' own spread
    /// (underpowered), a regression or improvement, unchanged, not worse — and returns true;
    /// false, `change` untouched, where it does not.
    func decide(bound: Double, in change: inout MetricChange) -> Bool {
        let passes = significant && excludesZero && abs(estimate) >= bound
        // Beyond the run-to-run spread too, with the replays' own error, one-sided at the
        // family's rate shared by its tests.
        let beyondRuns = runBound.map { abs(shift.estimate) > $0 }
        if passes && beyondRuns == false {
            change.verdict = .underpowered
            change.reason =
                "the replays differ, but separately recorded runs differ this much by themselves (\(runTermText)); "
                + "compare in one paired run: chateval run --baseline"
        } else if passes {
            change.verdict = change.isWorse ? .regression : .improvement
            change.reason =
                "p = \(RunComparator.format(decision?.adjustedPValue ?? 1)) after adjustment over \(familySize) tests, "
                + "and the change passes the threshold"
        } else if lower > -bound && upper < bound {
            change.verdict = .unchanged
            change.reason = "the \(confidence) interval lies within the threshold"
        } else if (test.metric.polarity == .smallerIsBetter ? upper : -lower) < bound {
            // The worse end within the threshold: whatever the truth, it is not a regression.
            change.verdict = .notWorse
            change.reason =
                "the \(confidence) interval rules out a change past the threshold for the worse; too few replays to tell an improvement"
        } else {
            return false
        }
        return true
    }

    /// Underpowered at this look: the forecast of the repetitions that would decide, and why it
    /// is undecided — no arrangement could show a change, the family's rate is out of reach, a
    /// change smaller than the threshold, an interval holding no change, or one too wide.
    func undecided(bound: Double, in change: inout MetricChange) {
        change.verdict = .underpowered
        change.repetitionsNeeded = forecast(bound: bound)
        if shift.minimumPValue >= 1 {
            change.reason = "\(shift.baseCount) and \(shift.headCount) replays: no arrangement of them could show a change"
        } else if decision?.adjustedPValue == nil {
            change.reason =
                "\(shift.baseCount) and \(shift.headCount) replays "
                + "cannot reach the family's rate (at best p = \(RunComparator.format(shift.minimumPValue)))"
        } else if significant && !(abs(estimate) >= bound) {
            change.reason = "a real change, smaller than the threshold, but the \(confidence) interval reaches past it"
        } else if significant {
            change.reason = "significant, but the \(confidence) interval holds no change"
        } else if (change.isWorse ? (test.metric.polarity == .smallerIsBetter ? lower : -upper) : -1) >= bound {
            // The interval printed lies wholly past the threshold, on the worse side, but the test
            // at this look's share of the rate did not confirm it: said as such, not as noise.
            change.reason =
                "a clear change at \(confidence), not confirmed at this look's level (adjusted p = "
                + "\(RunComparator.format(decision?.adjustedPValue ?? 1)), needs ≤ \(RunComparator.format(level.alpha))): "
                + "more repetitions decide"
        } else {
            change.reason = "the \(confidence) interval reaches past the threshold: too few or too noisy replays to decide"
        }
        // Separately recorded runs whose own spread alone reaches past the threshold: more
        // repetitions cannot narrow what lies between runs.
        if let runError, relative, RankShift.normalQuantile(1 - level.tail) * runError >= scaleBound(bound) {
            change.repetitionsNeeded = nil
            change.reason +=
                "; the runs' own spread reaches past the threshold, so more repetitions of them cannot decide: pair them "
                + "(chateval run --baseline)"
        }
    }
}
