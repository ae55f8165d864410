/// What is known of a turn's metrics: every value ChatEval measured for a turn it replayed, or
/// the few that a file of answers measured elsewhere gives (a tool that only knows the time to
/// the first token can still be graded on it). Checks read values through this, so a metric
/// nobody measured is "not measured", never 0.
public struct MetricReadings: Sendable, Hashable {
    public var values: [Metric: Double]
    public var stopReason: StopReason?
    /// Why a metric has no value, where it can be said ("1 generated token; a rate needs at least 2").
    public var reasons: [Metric: String]
    /// Metrics missing because the runtime cannot tell them (a server that reports no cache use,
    /// memory of another process), with the sentence to show: a check on one is "unknown" (an
    /// error verdict), neither passed nor a judgement of the answer.
    public var unknown: [Metric: String]

    public init(values: [Metric: Double], stopReason: StopReason? = nil, reasons: [Metric: String] = [:], unknown: [Metric: String] = [:]) {
        self.values = values
        self.stopReason = stopReason
        self.reasons = reasons
        self.unknown = unknown
    }

    /// Every metric a replayed turn defines, and why the others are undefined.
    public init(_ metrics: TurnMetrics) {
        // Sized once: resizing as it filled showed in the profile of grading a turn.
        var values = [Metric: Double](minimumCapacity: Metric.allCases.count)
        var reasons: [Metric: String] = [:]
        var unknown: [Metric: String] = [:]
        for metric in Metric.allCases {
            if let value = metric.value(of: metrics) {
                values[metric] = value
            } else {
                reasons[metric] = Self.whyUndefined(metric, metrics)
                unknown[metric] = Self.whyUnknown(metric, metrics)
            }
        }
        self.init(values: values, stopReason: metrics.stopReason, reasons: reasons, unknown: unknown)
    }

    public subscript(metric: Metric) -> Double? { values[metric] }

    /// Why the runtime cannot tell `metric`, when that is why it is missing; nil when the metric
    /// is simply undefined for the turn (a one-token answer has no decode rate).
    private static func whyUnknown(_ metric: Metric, _ turn: TurnMetrics) -> String? {
        switch metric {
        case .reuseRatio where turn.reusedTokens == nil:
            "unknown: the runtime does not report how much of the prompt came from its cache"
        case .prefillTokensPerSecond where turn.reusedTokens == nil || turn.prefillTime == nil:
            "unknown: the runtime does not report prefill"
        case .peakMemory where turn.peakResidentBytes == nil:
            "unknown: memory is not measured for this runtime (it does not run in this process)"
        default: nil
        }
    }

    private static func whyUndefined(_ metric: Metric, _ turn: TurnMetrics) -> String {
        switch metric {
        case .decodeTokensPerSecond: "\(turn.generatedTokens) generated tokens; a rate needs at least 2"
        case .prefillTokensPerSecond: turn.evaluatedTokens.map { "\($0) prompt tokens evaluated" } ?? "the runtime does not report prefill"
        case .peakMemory: "memory is not measured for this runtime"
        case .reuseRatio: "the runtime does not report how much of the prompt came from its cache"
        case .interTokenLatencyP50, .interTokenLatencyP95: "\(turn.generatedTokens) generated tokens; a gap needs at least 2"
        default: "undefined"
        }
    }
}
