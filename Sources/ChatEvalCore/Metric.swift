/// A per-turn measurement that can be checked, gated, summarised and compared — the one
/// vocabulary of metrics: a check `{type: decode-tps, min: 20}`, a gate
/// `{metric: decode-tps, stat: median, min: 20}` and a comparison row all name it the same way.
///
/// Every metric carries its polarity and unit, so code that compares runs never special-cases
/// "is bigger better here?".
public enum Metric: String, Codable, Sendable, CaseIterable {
    case timeToFirstToken = "ttft"
    case prefillTokensPerSecond = "prefill-tps"
    case decodeTokensPerSecond = "decode-tps"
    case interTokenLatencyP50 = "itl-p50"
    case interTokenLatencyP95 = "itl-p95"
    case totalTime = "total-time"
    /// Time per output token after the first, (total − TTFT) / (tokens − 1), 0 for a one-token
    /// answer: vLLM's and AIPerf's TPOT, what a serving objective (`slo: {tpot: 50ms}`) bounds.
    case timePerOutputToken = "tpot"
    case peakMemory = "peak-memory"
    case reuseRatio = "reuse-ratio"
    case reuseEfficiency = "reuse-efficiency"
    case generatedTokens = "generated-tokens"

    /// The name users write (`ttft`, `decode-tps`, ...).
    public var name: String { rawValue }

    public var polarity: Polarity {
        switch self {
        case .prefillTokensPerSecond, .decodeTokensPerSecond, .reuseRatio, .reuseEfficiency: .biggerIsBetter
        case .timeToFirstToken, .interTokenLatencyP50, .interTokenLatencyP95, .totalTime, .timePerOutputToken, .peakMemory,
            .generatedTokens:
            .smallerIsBetter
        }
    }

    public enum Unit: String, Codable, Sendable {
        case seconds, tokensPerSecond = "tokens/s", ratio, bytes, tokens
    }

    public var unit: Unit {
        switch self {
        case .timeToFirstToken, .interTokenLatencyP50, .interTokenLatencyP95, .totalTime, .timePerOutputToken: .seconds
        case .prefillTokensPerSecond, .decodeTokensPerSecond: .tokensPerSecond
        case .reuseRatio, .reuseEfficiency: .ratio
        case .peakMemory: .bytes
        case .generatedTokens: .tokens
        }
    }

    /// True for a time, a rate or memory: a quantity that moves with the machine from replay to
    /// replay, not with the answer. False for counts of work (generated tokens, reuse shares),
    /// which repeat exactly wherever the work ledger does. A check on a metric that moves with the
    /// machine is never compared exactly (`Verdict.readsMeasurements`).
    public var movesWithMachine: Bool {
        switch unit {
        case .seconds, .tokensPerSecond, .bytes: true
        case .ratio, .tokens: false
        }
    }

    /// The metrics a comparison of two runs looks at by default: the runtime's speed, memory and
    /// reuse. (`generated-tokens` follows from the answers, which the quality comparison covers;
    /// `tpot` is the decode rate's reciprocal, compared as `decode-tps`.)
    public static let compared: [Metric] = [
        .timeToFirstToken, .prefillTokensPerSecond, .decodeTokensPerSecond, .interTokenLatencyP50,
        .interTokenLatencyP95, .totalTime, .peakMemory, .reuseRatio, .reuseEfficiency,
    ]

    /// A short column label for tables.
    public var label: String {
        switch self {
        case .timeToFirstToken: "TTFT"
        case .prefillTokensPerSecond: "prefill t/s"
        case .decodeTokensPerSecond: "decode t/s"
        case .interTokenLatencyP50: "ITL p50"
        case .interTokenLatencyP95: "ITL p95"
        case .totalTime: "total"
        case .timePerOutputToken: "TPOT"
        case .reuseRatio: "reuse"
        case .reuseEfficiency: "reuse eff."
        case .peakMemory: "peak RSS"
        case .generatedTokens: "generated"
        }
    }

    /// One line for help texts and the check catalogue.
    public var summary: String {
        switch self {
        case .timeToFirstToken: "time from the start of the turn to the first token's text, in seconds"
        case .prefillTokensPerSecond: "prompt tokens evaluated anew per second of prefill"
        case .decodeTokensPerSecond: "tokens after the first per second after the first"
        case .interTokenLatencyP50: "median gap between consecutive tokens, in seconds"
        case .interTokenLatencyP95: "95th percentile of the gaps between consecutive tokens, in seconds"
        case .totalTime: "time from the start of the turn to the complete answer, in seconds"
        case .timePerOutputToken: "time per output token after the first, (total − TTFT) / (tokens − 1), 0 for one token, in seconds"
        case .reuseRatio: "share of the prompt served from the cache (0...1)"
        case .reuseEfficiency: "share of the tokens the cache held from the previous turn that were reused (0...1)"
        case .peakMemory: "peak resident memory of the process during the turn, in bytes"
        case .generatedTokens: "tokens generated for the answer"
        }
    }

    /// The value of this metric for one turn; nil when the turn does not define it
    /// (decode rate of a one-token answer, memory over HTTP, reuse a server does not report).
    public func value(of turn: TurnMetrics) -> Double? {
        switch self {
        case .timeToFirstToken: turn.timeToFirstToken
        case .prefillTokensPerSecond: turn.prefillTokensPerSecond
        case .decodeTokensPerSecond: turn.decodeTokensPerSecond
        case .interTokenLatencyP50: turn.interTokenLatency?.p50
        case .interTokenLatencyP95: turn.interTokenLatency?.p95
        case .totalTime: turn.totalTime
        case .timePerOutputToken:
            turn.generatedTokens > 1 ? (turn.totalTime - turn.timeToFirstToken) / Double(turn.generatedTokens - 1) : 0
        case .reuseRatio: turn.reuseRatio
        case .reuseEfficiency: turn.reuseEfficiency
        case .peakMemory: turn.peakResidentBytes.map(Double.init)
        case .generatedTokens: Double(turn.generatedTokens)
        }
    }

    /// The metric named `name`, or nil. Names are exact (`decode-tps`); see `suggestions`.
    public init?(name: String) { self.init(rawValue: name) }

    /// Every metric name, for messages.
    public static var names: [String] { allCases.map(\.rawValue) }
}
extension Metric: CodingKeyRepresentable {}
