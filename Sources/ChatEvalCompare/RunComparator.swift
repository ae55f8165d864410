import ChatEvalCore
import ChatEvalStore
import Foundation

/// The runs on one side of a comparison (one or more, pooled), and where they were read from.
public struct ComparedRuns: Sendable {
    public var runs: [RunRecord]
    /// File paths or `notes:<commit>` entries, for messages.
    public var sources: [String]

    public init(runs: [RunRecord], sources: [String]) {
        self.runs = runs
        self.sources = sources
    }
}

/// Compares a base and a head, metric by metric and check by check.
///
/// Metrics: for each suite present on both sides and each compared metric, the values of every
/// measured (not warm-up) answered turn are grouped by turn (conversation and position, each a
/// stratum) and tested with `RankShift` — on the logarithm of the values, so that the shift is a
/// ratio, except for ratios such as reuse, which are compared as differences. The suite-level
/// tests of the whole comparison form one family: Holm's adjustment keeps its false-alarm rate at
/// `familyErrorRate`. Per-turn tests are a second family, shown as detail and never gated.
///
/// A metric is a regression (or improvement) when its adjusted p-value is within the family
/// error rate AND its estimated change passes the practical threshold; unchanged when the
/// confidence interval lies within the threshold, or the change is real but smaller than the
/// threshold; underpowered otherwise — too few or too noisy samples to tell, with the number of
/// repetitions that would. When neither side varies at all (token counts, reuse of greedy
/// replays), the difference is exact and the threshold alone decides.
public enum RunComparator {
    /// `settings` are the preset and project file's; each suite's own thresholds (recorded in
    /// head's runs) come on top, then `commandLine`. `turnDetail: false` leaves out the per-turn
    /// rows (they never gate; a calibration that runs thousands of comparisons needs none).
    public static func compare(
        base: ComparedRuns, head: ComparedRuns, settings projectSettings: ComparisonSettings,
        commandLine: ComparisonOverrides = ComparisonOverrides(), turnDetail: Bool = true
    ) -> Comparison {
        let settings = projectSettings.applying(commandLine)
        var suiteSettings: [String: ComparisonSettings] = [:]
        for suite in head.runs.flatMap(\.suites) {
            if let own = suite.comparison { suiteSettings[suite.name] = projectSettings.applying(own).applying(commandLine) }
        }
        let baseSuites = measuredSuites(base.runs)
        let headSuites = measuredSuites(head.runs)
        let sharedSuites = headSuites.keys.filter { baseSuites[$0] != nil }
        let suiteOrder = suiteNames(head.runs).filter(sharedSuites.contains)

        // Every test first, decisions after Holm's adjustment of each family.
        var suiteTests: [PendingChange] = []
        var turnTests: [PendingChange] = []
        for suite in suiteOrder {
            guard let baseTurns = baseSuites[suite], let headTurns = headSuites[suite] else { continue }
            let keys = headTurns.keys.filter { baseTurns[$0] != nil }.sorted()
            for metric in settings.metrics {
                let strata = keys.map { key in
                    (base: baseTurns[key]?.compactMap(metric.value) ?? [], head: headTurns[key]?.compactMap(metric.value) ?? [])
                }
                suiteTests.append(PendingChange(suite: suite, turn: nil, metric: metric, strata: strata))
                for (key, stratum) in zip(keys, strata) where turnDetail {
                    turnTests.append(PendingChange(suite: suite, turn: key, metric: metric, strata: [stratum]))
                }
            }
        }
        let suiteChanges = decide(suiteTests, settings: settings, suiteSettings: suiteSettings)
        let turnChanges = decide(turnTests, settings: settings, suiteSettings: suiteSettings)

        let suites = suiteOrder.map { suite in
            let turnRows = Dictionary(grouping: zip(turnTests, turnChanges).filter { $0.0.suite == suite }, by: { $0.0.turn! })
            return SuiteComparison(
                name: suite,
                metrics: zip(suiteTests, suiteChanges).filter { $0.0.suite == suite }.map(\.1),
                turns: turnRows.keys.sorted().map { key in
                    TurnComparison(conversation: key.conversation, turn: key.turn + 1, metrics: turnRows[key]!.map(\.1))
                })
        }
        return Comparison(
            base: side(base), head: side(head), settings: settings,
            differences: SettingDifferences.between(base: base.runs, head: head.runs),
            suites: suites,
            quality: QualityComparator.compare(base: base.runs, head: head.runs))
    }

    // MARK: Samples

    /// A turn's place in a suite: the stratum its values are compared within.
    struct TurnKey: Hashable, Comparable {
        var conversation: String
        /// 0-based.
        var turn: Int
        static func < (a: TurnKey, b: TurnKey) -> Bool { (a.conversation, a.turn) < (b.conversation, b.turn) }
    }

    /// Suite name → turn → metrics of every measured, answered replay of that turn.
    static func measuredSuites(_ runs: [RunRecord]) -> [String: [TurnKey: [TurnMetrics]]] {
        var suites: [String: [TurnKey: [TurnMetrics]]] = [:]
        for run in runs {
            for suite in run.suites {
                for conversation in suite.conversations where !conversation.warmup {
                    for turn in conversation.turns {
                        guard let metrics = turn.metrics, turn.status == .answered else { continue }
                        suites[suite.name, default: [:]][TurnKey(conversation: conversation.id, turn: turn.index), default: []].append(metrics)
                    }
                }
            }
        }
        return suites
    }

    /// Suite names in the order the runs list them.
    private static func suiteNames(_ runs: [RunRecord]) -> [String] {
        var seen = Set<String>()
        return runs.flatMap { $0.suites.map(\.name) }.filter { seen.insert($0).inserted }
    }

    private static func side(_ side: ComparedRuns) -> ComparedSide {
        let latest = side.runs.max { $0.startedAt < $1.startedAt }
        return ComparedSide(
            commit: latest?.git?.commit, shortCommit: latest?.git?.shortCommit, subject: latest?.git?.subject,
            dirty: side.runs.contains { $0.git?.isDirty == true }, runs: side.runs.map(\.runId), sources: side.sources,
            model: latest.map { "\($0.runtime.model.description) (\(URL(fileURLWithPath: $0.runtime.model.path).lastPathComponent))" } ?? "",
            machine: latest.map { "\($0.machine.cpuModel), \($0.machine.logicalCores) cores" } ?? "",
            repetitions: side.runs.reduce(0) { $0 + $1.settings.repetitions })
    }

    // MARK: Deciding

    struct PendingChange {
        var suite: String
        var turn: TurnKey?
        var metric: Metric
        var strata: [(base: [Double], head: [Double])]
    }

    /// Tests each pending change, adjusts the family's p-values together (at the comparison's
    /// one false-alarm rate), and decides each with its suite's thresholds.
    static func decide(_ family: [PendingChange], settings: ComparisonSettings, suiteSettings: [String: ComparisonSettings] = [:]) -> [MetricChange] {
        let tested = family.map { test($0, settings: settings) }
        let adjusted = Holm.adjust(tested.map { $0.shift?.pValue ?? 1 })
        return zip(family, zip(tested, adjusted)).map { pending, result in
            var local = suiteSettings[pending.suite] ?? settings
            local.familyErrorRate = settings.familyErrorRate
            local.confidence = settings.confidence
            return verdict(for: result.0, adjustedPValue: result.1, settings: local)
        }
    }

    /// A change measured but not yet decided.
    struct TestedChange {
        var metric: Metric
        var baseValues: [Double]
        var headValues: [Double]
        var shift: RankShift?
        /// Neither side varies within any stratum: the difference is exact.
        var exact: Bool
        /// Values per stratum and side (the typical number of repetitions), and strata count.
        var repetitions: Int
        var strata: Int
        /// Pooled standard deviation within strata and sides, on the compared scale.
        var spread: Double
    }

    /// Metrics compared as differences rather than ratios (they can be 0).
    static func comparesDifferences(_ metric: Metric) -> Bool { metric.unit == .ratio }

    static func test(_ pending: PendingChange, settings: ComparisonSettings) -> TestedChange {
        let onLog = !comparesDifferences(pending.metric)
        let transform: (Double) -> Double? = { value in onLog ? (value > 0 ? Foundation.log(value) : nil) : value }
        let strata = pending.strata.map { (base: $0.base.compactMap(transform), head: $0.head.compactMap(transform)) }
            .filter { !$0.base.isEmpty && !$0.head.isEmpty }
        let exact = !strata.isEmpty && strata.allSatisfy { Set($0.base).count == 1 && Set($0.head).count == 1 }
        let counts = strata.flatMap { [$0.base.count, $0.head.count] }.sorted()
        var squares = 0.0, degrees = 0
        for stratum in strata {
            for side in [stratum.base, stratum.head] where side.count > 1 {
                let mean = side.reduce(0, +) / Double(side.count)
                squares += side.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
                degrees += side.count - 1
            }
        }
        return TestedChange(
            metric: pending.metric,
            baseValues: pending.strata.flatMap(\.base), headValues: pending.strata.flatMap(\.head),
            shift: RankShift(strata: strata, confidence: settings.confidence), exact: exact,
            repetitions: counts.isEmpty ? 0 : counts[counts.count / 2], strata: strata.count,
            spread: degrees > 0 ? (squares / Double(degrees)).squareRoot() : 0)
    }

    static func verdict(for test: TestedChange, adjustedPValue: Double, settings: ComparisonSettings) -> MetricChange {
        let metric = test.metric
        let relative = !comparesDifferences(metric)
        var change = MetricChange(
            metric: metric, baseMedian: Distribution(test.baseValues)?.median, headMedian: Distribution(test.headValues)?.median,
            baseCount: test.shift?.baseCount ?? 0, headCount: test.shift?.headCount ?? 0,
            scale: relative ? "relative" : "absolute", verdict: .notMeasured, reason: "")
        guard let shift = test.shift, let baseMedian = change.baseMedian else {
            change.reason = test.baseValues.isEmpty && test.headValues.isEmpty
                ? "not measured on either side" : test.baseValues.isEmpty ? "not measured on base" : "not measured on head"
            return change
        }
        // Back from the compared scale to the reported one.
        let report: (Double) -> Double = relative ? { expm1($0) } : { $0 }
        change.change = report(shift.estimate)
        change.changeLower = report(shift.lower)
        change.changeUpper = report(shift.upper)
        change.pValue = shift.pValue
        change.adjustedPValue = adjustedPValue
        guard let threshold = settings.thresholds[metric] else {
            change.verdict = .unchanged
            change.reason = "no threshold for \(metric.name): shown, not gated"
            return change
        }
        let bound = relative ? threshold.relativeBound(atBase: baseMedian) : max(threshold.absolute, threshold.relative * baseMedian)
        change.threshold = bound
        let estimate = report(shift.estimate)
        let direction = change.isWorse ? ChangeVerdict.regression : .improvement

        if test.exact {
            // No spread on either side: the difference is what it is.
            change.verdict = abs(estimate) >= bound ? direction : .unchanged
            change.reason = "no variation on either side: an exact difference" + (abs(estimate) >= bound ? " beyond" : " within") + " the threshold"
            return change
        }
        let minimum = min(shift.baseCount, shift.headCount)
        if minimum < settings.minimumSamples {
            change.verdict = .underpowered
            change.repetitionsNeeded = repetitionsNeeded(test, bound: bound, relative: relative, settings: settings)
            change.reason = "\(minimum) values on one side; at least \(settings.minimumSamples) are needed"
            return change
        }
        let significant = adjustedPValue <= settings.familyErrorRate
        let beyond = abs(estimate) >= bound
        let lower = change.changeLower ?? -.infinity, upper = change.changeUpper ?? .infinity
        if significant && beyond {
            change.verdict = direction
            change.reason = "p = \(format(adjustedPValue)) after adjustment, and the change passes the threshold"
        } else if lower > -bound && upper < bound {
            change.verdict = .unchanged
            change.reason = "the \(Int((settings.confidence * 100).rounded()))% interval lies within the threshold"
        } else if significant {
            change.verdict = .unchanged
            change.reason = "a real change, smaller than the threshold"
        } else {
            change.verdict = .underpowered
            change.repetitionsNeeded = repetitionsNeeded(test, bound: bound, relative: relative, settings: settings)
            change.reason = "the interval reaches past the threshold: too few or too noisy samples to decide"
        }
        return change
    }

    /// About how many repetitions per side would give an interval narrower than the threshold
    /// (so that no change would show as unchanged): the interval of a rank shift estimate is
    /// about z·σ·√(π/3)·√(2/N) wide on each side (√(π/3): the estimator's efficiency against a mean).
    static func repetitionsNeeded(_ test: TestedChange, bound: Double, relative: Bool, settings: ComparisonSettings) -> Int? {
        let scaleBound = relative ? log1p(bound) : bound
        guard test.spread > 0, scaleBound > 0, test.strata > 0 else { return nil }
        let z = RankShift.normalQuantile(1 - (1 - settings.confidence) / 2)
        let perSide = 2 * Double.pi / 3 * pow(z * test.spread / scaleBound, 2)
        let repetitions = Int((perSide / Double(test.strata)).rounded(.up))
        return max(repetitions, settings.minimumSamples, test.repetitions + 1)
    }

    private static func format(_ p: Double) -> String { p < 0.0001 ? String(format: "%.1e", p) : String(format: "%.4f", p) }
}
