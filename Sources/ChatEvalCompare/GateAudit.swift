import ChatEvalCore
import Foundation

/// What `chateval calibrate` measured of the gate on one machine class and model: the suites
/// replayed against themselves (A/A) a number of times with the gate's own design, how often that
/// reported a regression, how noisy each metric's replays were, and from that the smallest change
/// of each metric the design's repetitions detect. Stored as JSON under the reports folder
/// (`.chateval/calibration/`), and printed by every comparison on that machine and model.
public struct GateAudit: Codable, Sendable, Hashable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// `MachineInfo.performanceClass` of the machine measured.
    public var machine: String
    public var modelSha256: String?
    /// The model's file name.
    public var model: String
    public var measuredAt: Date
    /// The commit whose suites were replayed.
    public var commit: String?
    /// A/A comparisons run, and how many reported any regression (a false alarm each).
    public var comparisons: Int
    public var falseAlarms: Int
    /// How many of them ended with everything decided.
    public var decided: Int
    /// The design used: repetitions per side at each look.
    public var looks: [Int]
    /// Repetitions per side each comparison took.
    public var repetitionsUsed: [Int]
    /// The false-alarm rate and preset the comparisons decided at.
    public var familyErrorRate: Double
    public var preset: String
    /// Per suite and metric: the noise of one replay and the change the design detects.
    public var metrics: [MetricNoise]
    /// Replays left out for a busy machine during the calibration, of all measured.
    public var replaysLeftOut: Int
    public var replaysMeasured: Int

    public init(
        machine: String, modelSha256: String?, model: String, measuredAt: Date, commit: String?, comparisons: Int, falseAlarms: Int,
        decided: Int, looks: [Int], repetitionsUsed: [Int], familyErrorRate: Double, preset: String, metrics: [MetricNoise],
        replaysLeftOut: Int, replaysMeasured: Int
    ) {
        schemaVersion = Self.currentSchemaVersion
        self.machine = machine
        self.modelSha256 = modelSha256
        self.model = model
        self.measuredAt = measuredAt
        self.commit = commit
        self.comparisons = comparisons
        self.falseAlarms = falseAlarms
        self.decided = decided
        self.looks = looks
        self.repetitionsUsed = repetitionsUsed
        self.familyErrorRate = familyErrorRate
        self.preset = preset
        self.metrics = metrics
        self.replaysLeftOut = replaysLeftOut
        self.replaysMeasured = replaysMeasured
    }

    /// One suite's metric as the calibration saw it.
    public struct MetricNoise: Codable, Sendable, Hashable {
        public var suite: String
        public var metric: Metric
        public var scale: ChangeScale
        /// Standard deviation of one replay's value within its conversation, on the compared
        /// scale (log for relative metrics: 0.1 ≈ 10%).
        public var spread: Double
        /// Conversations (strata) the suite compares.
        public var strata: Int
        /// The smallest change detected with 90% power at the design's most repetitions, in the
        /// scale of `scale` (0.06 = 6% for a relative metric): never under the metric's threshold.
        public var detectable: Double
        /// A/A comparisons that called this metric of this suite a regression.
        public var falseAlarms: Int

        public init(suite: String, metric: Metric, scale: ChangeScale, spread: Double, strata: Int, detectable: Double, falseAlarms: Int) {
            self.suite = suite
            self.metric = metric
            self.scale = scale
            self.spread = spread
            self.strata = strata
            self.detectable = detectable
            self.falseAlarms = falseAlarms
        }
    }

    /// The smallest change of a metric, with replay spread `spread` over `strata` conversations,
    /// that `repetitions` per side detect with 90% power (`RepetitionForecast.power`, z_β = 1.28),
    /// in the metric's reported scale. A regression needs both (as `RepetitionForecast` asks):
    /// significance at family-wise `alpha` over `tests` tests, two-sided (Bonferroni's share,
    /// which Holm's first step is: the change ≥ (z at 1 − alpha/tests/2 + z_β) · se); and the
    /// estimate past `threshold` (the bound on the compared scale: log(1 + fraction) for a relative
    /// metric), since a change under it is never flagged: the change ≥ threshold + z_β · se.
    /// se = spread · √(π/3) · √(2 / (repetitions · strata)), the rank test's standard error.
    public static func detectableChange(
        spread: Double, strata: Int, repetitions: Int, alpha: Double, tests: Int, relative: Bool, threshold: Double = 0
    ) -> Double {
        guard spread > 0, strata > 0, repetitions > 0 else { return relative ? expm1(threshold) : threshold }
        let zBeta = RankShift.normalQuantile(RepetitionForecast.power)
        let zAlpha = RankShift.normalQuantile(1 - alpha / Double(max(tests, 1)) / 2)
        let standardError = spread * (Double.pi / 3).squareRoot() * (2 / Double(repetitions * strata)).squareRoot()
        let change = max((zAlpha + zBeta) * standardError, threshold + zBeta * standardError)
        return relative ? expm1(change) : change
    }

    /// The A/A false-alarm rate measured, with its 95% Clopper–Pearson interval (nil: no comparisons).
    public var falseAlarmRate: ClopperPearson? { ClopperPearson(successes: falseAlarms, trials: comparisons) }

    /// What A/A comparisons say about the gate: false alarms, and per suite and metric the pooled
    /// replay noise (the root mean square of each comparison's spread), the change detectable at
    /// the design's most repetitions at the last look's level over the tests that could reach it,
    /// and at least the metric's threshold there (the largest bound the comparisons applied).
    public static func measure(
        _ results: [Comparison], design: SequentialDesign, settings: ComparisonSettings, machine: String, modelSha256: String?,
        model: String, commit: String?, measuredAt: Date = Date()
    ) -> GateAudit {
        struct Key: Hashable {
            var suite: String
            var metric: Metric
        }
        var spreads: [Key: [Double]] = [:], strata: [Key: Int] = [:], alarms: [Key: Int] = [:], scales: [Key: ChangeScale] = [:]
        var bounds: [Key: Double] = [:]
        for result in results {
            for suite in result.suites {
                for change in suite.metrics {
                    let key = Key(suite: suite.name, metric: change.metric)
                    if let spread = change.replaySpread, spread > 0 { spreads[key, default: []].append(spread) }
                    if let count = change.strata { strata[key] = count }
                    if let bound = change.threshold { bounds[key] = max(bounds[key] ?? 0, bound) }
                    scales[key] = change.scale
                    if change.verdict == .regression { alarms[key, default: 0] += 1 }
                }
            }
        }
        let tests = max(1, results.map { $0.family.testable }.max() ?? 1)
        let alpha = settings.familyErrorRate * design.share(atLook: design.looks.count - 1)
        let metrics = spreads.keys.sorted { ($0.suite, $0.metric.rawValue) < ($1.suite, $1.metric.rawValue) }.compactMap {
            key -> MetricNoise? in
            guard let values = spreads[key], !values.isEmpty else { return nil }
            let spread = (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
            let relative = scales[key] == .relative
            let bound = bounds[key].map { relative ? log1p($0) : $0 } ?? 0
            return MetricNoise(
                suite: key.suite, metric: key.metric, scale: scales[key] ?? .relative, spread: spread, strata: strata[key] ?? 1,
                detectable: detectableChange(
                    spread: spread, strata: strata[key] ?? 1, repetitions: design.maximum, alpha: alpha, tests: tests, relative: relative,
                    threshold: bound),
                falseAlarms: alarms[key] ?? 0)
        }
        return GateAudit(
            machine: machine, modelSha256: modelSha256, model: model, measuredAt: measuredAt, commit: commit, comparisons: results.count,
            falseAlarms: results.filter(\.hasRegression).count, decided: results.filter(\.isDecided).count, looks: design.looks,
            repetitionsUsed: results.map { $0.sequential?.repetitions ?? $0.design.looks.last ?? 0 },
            familyErrorRate: settings.familyErrorRate, preset: settings.preset, metrics: metrics,
            replaysLeftOut: results.reduce(0) {
                $0 + $1.load.base.leftOut + $1.load.head.leftOut + $1.load.base.remeasured + $1.load.head.remeasured
            },
            replaysMeasured: results.reduce(0) { $0 + $1.load.base.sampled + $1.load.head.sampled })
    }

    /// The metric of the suite where the design detects the least (the largest detectable change).
    public func weakest(_ metric: Metric) -> MetricNoise? {
        metrics.filter { $0.metric == metric }.max { $0.detectable < $1.detectable }
    }

    /// Thresholds below what this runner detects: a gate set there reports underpowered, not
    /// regressions. One sentence each.
    public func thresholdWarnings(_ settings: ComparisonSettings) -> [String] {
        settings.metrics.compactMap { metric -> String? in
            guard let weakest = weakest(metric), let threshold = settings.thresholds[metric], weakest.scale == .relative,
                weakest.detectable > threshold.relative
            else { return nil }
            return String(
                format: "%@ threshold %.0f%% is below the %.1f%% this runner detects in %@ at %d repetitions: "
                    + "raise max_repetitions or the threshold", metric.name, threshold.relative * 100, weakest.detectable * 100,
                weakest.suite, looks.last ?? 0)
        }
    }
}
