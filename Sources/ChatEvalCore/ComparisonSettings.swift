/// How a comparison decides: plain data, with named presets (`strict`, `default`, `relaxed`)
/// that a project file, a suite or the command line can pick and override metric by metric.
public struct ComparisonSettings: Codable, Sendable, Hashable {
    /// The preset these settings started from.
    public var preset: String
    /// The false-alarm rate of the whole comparison: the chance that a comparison of two
    /// identical builds reports any metric of any suite as changed (Holm–Bonferroni over all of
    /// them).
    public var familyErrorRate: Double
    /// Confidence level of the intervals shown, and of the "unchanged" decision.
    public var confidence: Double
    /// Fewest values on each side below which a metric is underpowered whatever they say.
    public var minimumSamples: Int
    /// Practical thresholds per metric; a metric without one is compared but never gated.
    public var thresholds: [Metric: MetricThreshold]
    /// The metrics compared.
    public var metrics: [Metric]
    /// Cores other processes may use during a replay before its timings are left out of a
    /// comparison of in-process runs (and `run --baseline` measures it again); nil compares
    /// every replay whatever the machine was doing.
    public var busyThreshold: Double?
    /// The metrics a paired run keeps measuring while they are open (underpowered), even once a
    /// regression of another metric is confirmed: the ones the project cares most about, so that
    /// "inter-token p95 regressed" does not end the run while TTFT is still undecided. nil is the
    /// default, `defaultPriority`; an empty list stops at the first confirmed regression.
    public var priority: [Metric]?

    /// TTFT: the latency a chat user feels first.
    public static let defaultPriority: [Metric] = [.timeToFirstToken]
    /// `priority`, or the default when unset.
    public var priorityMetrics: [Metric] { priority ?? Self.defaultPriority }

    /// Other processes using a quarter of a core: on a 2-core machine running llama.cpp on both,
    /// an eighth of the machine taken.
    public static let defaultBusyThreshold = 0.25

    public init(
        preset: String, familyErrorRate: Double, confidence: Double = 0.95, minimumSamples: Int = 3,
        thresholds: [Metric: MetricThreshold], metrics: [Metric] = Metric.compared,
        busyThreshold: Double? = ComparisonSettings.defaultBusyThreshold
    ) {
        self.preset = preset
        self.familyErrorRate = familyErrorRate
        self.confidence = confidence
        self.minimumSamples = minimumSamples
        self.thresholds = thresholds
        self.metrics = metrics
        self.busyThreshold = busyThreshold
    }

    /// The preset named `name`, or nil.
    public static func preset(named name: String) -> ComparisonSettings? {
        presets.first { $0.preset == name }
    }

    public static var presets: [ComparisonSettings] { [.strict, .default, .relaxed] }

    /// Problems that make these settings unusable, as sentences; empty when valid.
    public var problems: [String] {
        var found: [String] = []
        if !(familyErrorRate > 0 && familyErrorRate < 1) {
            found.append("the false-alarm rate (alpha) must be between 0 and 1, exclusive (got \(familyErrorRate))")
        }
        if !(confidence > 0 && confidence < 1) { found.append("the confidence must be between 0 and 1, exclusive (got \(confidence))") }
        if minimumSamples < 2 { found.append("the minimum number of samples must be at least 2 (got \(minimumSamples))") }
        for (metric, threshold) in thresholds.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if !(threshold.relative >= 0 && threshold.relative.isFinite) {
                found.append("\(metric.name): the relative threshold must be 0 or more (got \(threshold.relative))")
            }
            if !(threshold.absolute >= 0 && threshold.absolute.isFinite) {
                found.append("\(metric.name): the absolute threshold must be 0 or more (got \(threshold.absolute))")
            }
        }
        return found
    }
}

// MARK: - Presets

extension ComparisonSettings {
    /// Repetitions per side that a comparison needs by default: with them, a 10% change of a
    /// metric whose values vary by 10% is caught in at least 95% of comparisons of an 8-turn
    /// suite (measured by `GateCalibration` in the tests and in `make bench`).
    public static let defaultRepetitions = 10

    /// A 5% change, beyond a small absolute floor, at a 1% false-alarm rate for the whole
    /// comparison: what a CI gate on a shared runner can hold to (measured in `make bench`).
    public static let `default` = ComparisonSettings(
        preset: "default", familyErrorRate: 0.01,
        thresholds: thresholds(relative: 0.05, seconds: 0.002, gap: 0.0005, rate: 0.5, bytes: 1_048_576, ratio: 0.02, efficiency: 0.05))

    /// A 2% change at a 5% false-alarm rate: for quiet, dedicated machines and many repetitions.
    public static let strict = ComparisonSettings(
        preset: "strict", familyErrorRate: 0.05,
        thresholds: thresholds(relative: 0.02, seconds: 0.001, gap: 0.0002, rate: 0.1, bytes: 524_288, ratio: 0.01, efficiency: 0.02))

    /// A 10% change at a 0.1% false-alarm rate: for noisy shared runners.
    public static let relaxed = ComparisonSettings(
        preset: "relaxed", familyErrorRate: 0.001,
        thresholds: thresholds(relative: 0.10, seconds: 0.005, gap: 0.001, rate: 1, bytes: 4_194_304, ratio: 0.05, efficiency: 0.10))

    /// Every compared metric's threshold: `relative` for all, with each unit's absolute floor.
    /// `efficiency` is reuse efficiency's, in points of a 0...1 share where bigger is better: it
    /// is 1 whenever the cache serves all it holds, so its floor equals the preset's relative
    /// threshold (5 points of 100% is the 5% of the default preset) and is what decides; the
    /// relative bound of a base under 1 is smaller.
    private static func thresholds(
        relative: Double, seconds: Double, gap: Double, rate: Double, bytes: Double, ratio: Double, efficiency: Double
    ) -> [Metric: MetricThreshold] {
        [
            .timeToFirstToken: MetricThreshold(relative: relative, absolute: seconds),
            .totalTime: MetricThreshold(relative: relative, absolute: seconds),
            .interTokenLatencyP50: MetricThreshold(relative: relative, absolute: gap),
            .interTokenLatencyP95: MetricThreshold(relative: relative, absolute: gap),
            .prefillTokensPerSecond: MetricThreshold(relative: relative, absolute: rate),
            .decodeTokensPerSecond: MetricThreshold(relative: relative, absolute: rate),
            .peakMemory: MetricThreshold(relative: relative, absolute: bytes),
            .reuseRatio: MetricThreshold(relative: relative, absolute: ratio),
            .reuseEfficiency: MetricThreshold(relative: relative, absolute: efficiency),
            .generatedTokens: MetricThreshold(relative: relative, absolute: 1),
        ]
    }
}

// MARK: - Overrides

extension ComparisonSettings {
    /// These settings with `overrides` applied: its preset first (replacing everything), then
    /// each field it sets. Unknown preset names are the caller's to refuse (see `preset(named:)`).
    public func applying(_ overrides: ComparisonOverrides) -> ComparisonSettings {
        var result = overrides.preset.flatMap(Self.preset(named:)) ?? self
        if let value = overrides.familyErrorRate { result.familyErrorRate = value }
        if let value = overrides.confidence { result.confidence = value }
        if let value = overrides.minimumSamples { result.minimumSamples = value }
        if let value = overrides.busyThreshold { result.busyThreshold = value.isFinite ? value : nil }
        if let value = overrides.priority { result.priority = value }
        for (metric, threshold) in overrides.thresholds {
            let current = result.thresholds[metric] ?? MetricThreshold(relative: 0, absolute: 0)
            result.thresholds[metric] = MetricThreshold(
                relative: threshold.relative ?? current.relative, absolute: threshold.absolute ?? current.absolute)
        }
        return result
    }
}
