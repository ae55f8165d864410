/// Whether a bigger value of a metric is an improvement or a regression.
public enum Polarity: String, Codable, Sendable {
    case biggerIsBetter = "bigger_is_better"
    case smallerIsBetter = "smaller_is_better"
}

/// A per-turn measurement that can be summarised, compared and gated on.
///
/// Every metric carries its polarity and unit, so code that compares runs never special-cases
/// "is bigger better here?".
public enum Metric: String, Codable, Sendable, CaseIterable {
    case timeToFirstToken = "ttft"
    case prefillTokensPerSecond = "prefill_tps"
    case decodeTokensPerSecond = "decode_tps"
    case interTokenLatencyP50 = "itl_p50"
    case interTokenLatencyP95 = "itl_p95"
    case totalTime = "total_time"
    case reuseRatio = "reuse_ratio"
    case peakResidentMemory = "peak_rss"

    public var polarity: Polarity {
        switch self {
        case .prefillTokensPerSecond, .decodeTokensPerSecond, .reuseRatio: .biggerIsBetter
        case .timeToFirstToken, .interTokenLatencyP50, .interTokenLatencyP95, .totalTime, .peakResidentMemory: .smallerIsBetter
        }
    }

    public enum Unit: String, Codable, Sendable { case seconds, tokensPerSecond = "tokens/s", ratio, bytes }

    public var unit: Unit {
        switch self {
        case .timeToFirstToken, .interTokenLatencyP50, .interTokenLatencyP95, .totalTime: .seconds
        case .prefillTokensPerSecond, .decodeTokensPerSecond: .tokensPerSecond
        case .reuseRatio: .ratio
        case .peakResidentMemory: .bytes
        }
    }

    /// A short column label for tables.
    public var label: String {
        switch self {
        case .timeToFirstToken: "TTFT"
        case .prefillTokensPerSecond: "prefill t/s"
        case .decodeTokensPerSecond: "decode t/s"
        case .interTokenLatencyP50: "ITL p50"
        case .interTokenLatencyP95: "ITL p95"
        case .totalTime: "total"
        case .reuseRatio: "reuse"
        case .peakResidentMemory: "peak RSS"
        }
    }

    /// The value of this metric for one turn; nil when the turn does not define it
    /// (decode rate of a one-token answer, memory over HTTP).
    public func value(of turn: TurnMetrics) -> Double? {
        switch self {
        case .timeToFirstToken: turn.timeToFirstToken
        case .prefillTokensPerSecond: turn.prefillTokensPerSecond
        case .decodeTokensPerSecond: turn.decodeTokensPerSecond
        case .interTokenLatencyP50: turn.interTokenLatency?.p50
        case .interTokenLatencyP95: turn.interTokenLatency?.p95
        case .totalTime: turn.totalTime
        case .reuseRatio: turn.reuseRatio
        case .peakResidentMemory: turn.peakResidentBytes.map(Double.init)
        }
    }
}
