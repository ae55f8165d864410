/// Why generation of an answer ended.
public enum StopReason: String, Codable, Sendable, Hashable, CaseIterable {
    /// The model produced an end-of-generation token.
    case endOfGeneration = "eog"
    /// The answer reached `GenerationOptions.maxTokens`.
    case maxTokens = "max_tokens"
    /// A stop string appeared; it is cut from the answer.
    case stopString = "stop_string"
}

/// Everything measured about one assistant turn: token counts and timings, with rates computed
/// from them (one value type, so a rate can never disagree with the counts it came from).
///
/// Times are seconds on a monotonic clock, measured from the turn's start: the moment the runtime
/// began rendering the chat template for this turn.
public struct TurnMetrics: Codable, Sendable, Hashable {
    /// Tokens of the whole rendered history sent for this turn (the prompt).
    public var promptTokens: Int
    /// Prompt tokens served from the cache of the previous turn (not evaluated again); nil when
    /// the runtime cannot tell (a server that reports no cache figures) — unknown, never 0.
    public var reusedTokens: Int?
    /// Tokens of the answer, including a final end-of-generation token if one was sampled.
    public var generatedTokens: Int
    /// Start of the turn → first generated token's text available (template, tokenize, prefill, first sample).
    public var timeToFirstToken: Double
    /// Time spent evaluating the prompt tokens that were not reused; nil when the runtime cannot
    /// tell (a server that reports no timings).
    public var prefillTime: Double?
    /// First generated token → last generated token.
    public var decodeTime: Double
    /// Start of the turn → answer complete.
    public var totalTime: Double
    /// Gaps between consecutive generated tokens, in seconds (count = generatedTokens - 1).
    public var interTokenLatencies: [Double]
    public var stopReason: StopReason
    /// Peak resident memory of the process during the turn, in bytes — the model, the KV cache,
    /// llama.cpp's buffers and the harness together (Linux VmHWM, reset at the turn's start); nil
    /// when the runtime does not run in this process (an HTTP server) or the platform cannot tell.
    public var peakResidentBytes: Int?
    /// The same over the prefill (template, tokenizing, evaluating the prompt) and over the
    /// decode (the generated tokens); `peakResidentBytes` is the larger of the two.
    public var prefillPeakResidentBytes: Int?
    public var decodePeakResidentBytes: Int?
    /// Bytes of the KV cache holding this conversation's tokens at the end of the turn (the
    /// prompt and the answer): what the session occupies of the whole cache.
    public var kvCacheBytesInUse: Int?

    public init(
        promptTokens: Int, reusedTokens: Int?, generatedTokens: Int,
        timeToFirstToken: Double, prefillTime: Double?, decodeTime: Double, totalTime: Double,
        interTokenLatencies: [Double], stopReason: StopReason, peakResidentBytes: Int? = nil,
        prefillPeakResidentBytes: Int? = nil, decodePeakResidentBytes: Int? = nil, kvCacheBytesInUse: Int? = nil
    ) {
        self.prefillPeakResidentBytes = prefillPeakResidentBytes
        self.decodePeakResidentBytes = decodePeakResidentBytes
        self.kvCacheBytesInUse = kvCacheBytesInUse
        self.promptTokens = promptTokens
        self.reusedTokens = reusedTokens
        self.generatedTokens = generatedTokens
        self.timeToFirstToken = timeToFirstToken
        self.prefillTime = prefillTime
        self.decodeTime = decodeTime
        self.totalTime = totalTime
        self.interTokenLatencies = interTokenLatencies
        self.stopReason = stopReason
        self.peakResidentBytes = peakResidentBytes
    }

    /// Prompt tokens evaluated anew for this turn; nil when reuse is unknown.
    public var evaluatedTokens: Int? { reusedTokens.map { promptTokens - $0 } }

    /// Evaluated prompt tokens per second of prefill; nil when nothing was evaluated or either
    /// figure is unknown.
    public var prefillTokensPerSecond: Double? { Self.prefillRate(evaluated: evaluatedTokens, prefillTime: prefillTime) }

    /// Tokens after the first over the time after the first; nil with fewer than two tokens.
    public var decodeTokensPerSecond: Double? { Self.decodeRate(generated: generatedTokens, decodeTime: decodeTime) }

    /// Share of the prompt served from cache, in [0, 1]; nil when reuse is unknown or the prompt empty.
    public var reuseRatio: Double? { Self.reuseRatio(reused: reusedTokens, prompt: promptTokens) }

    /// The rates' rules, also for measurements that come in parts (an answers file).
    public static func prefillRate(evaluated: Int?, prefillTime: Double?) -> Double? {
        guard let evaluated, let prefillTime, evaluated > 0, prefillTime > 0 else { return nil }
        return Double(evaluated) / prefillTime
    }

    public static func decodeRate(generated: Int, decodeTime: Double) -> Double? {
        generated > 1 && decodeTime > 0 ? Double(generated - 1) / decodeTime : nil
    }

    public static func reuseRatio(reused: Int?, prompt: Int) -> Double? {
        guard let reused, prompt > 0 else { return nil }
        return Double(reused) / Double(prompt)
    }

    public var interTokenLatency: Distribution? { Distribution(interTokenLatencies) }
}

extension TurnMetrics {
    /// Times are written at microsecond resolution: finer digits are clock noise, and a result
    /// file (or a git note holding one) stays about half as large.
    private static func microseconds(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1e6).rounded() / 1e6 : seconds
    }

    private enum CodingKeys: String, CodingKey {
        case promptTokens, reusedTokens, generatedTokens, timeToFirstToken, prefillTime, decodeTime, totalTime
        case interTokenLatencies, stopReason, peakResidentBytes, prefillPeakResidentBytes, decodePeakResidentBytes, kvCacheBytesInUse
        // Derived, written for readers of result files; ignored when decoding.
        case evaluatedTokens, prefillTokensPerSecond, decodeTokensPerSecond, reuseRatio, interTokenLatency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            promptTokens: try container.decode(Int.self, forKey: .promptTokens),
            reusedTokens: try container.decodeIfPresent(Int.self, forKey: .reusedTokens),
            generatedTokens: try container.decode(Int.self, forKey: .generatedTokens),
            timeToFirstToken: try container.decode(Double.self, forKey: .timeToFirstToken),
            prefillTime: try container.decodeIfPresent(Double.self, forKey: .prefillTime),
            decodeTime: try container.decode(Double.self, forKey: .decodeTime),
            totalTime: try container.decode(Double.self, forKey: .totalTime),
            interTokenLatencies: try container.decode([Double].self, forKey: .interTokenLatencies),
            stopReason: try container.decode(StopReason.self, forKey: .stopReason),
            peakResidentBytes: try container.decodeIfPresent(Int.self, forKey: .peakResidentBytes),
            prefillPeakResidentBytes: try container.decodeIfPresent(Int.self, forKey: .prefillPeakResidentBytes),
            decodePeakResidentBytes: try container.decodeIfPresent(Int.self, forKey: .decodePeakResidentBytes),
            kvCacheBytesInUse: try container.decodeIfPresent(Int.self, forKey: .kvCacheBytesInUse))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(promptTokens, forKey: .promptTokens)
        try container.encodeIfPresent(reusedTokens, forKey: .reusedTokens)
        try container.encode(generatedTokens, forKey: .generatedTokens)
        try container.encode(Self.microseconds(timeToFirstToken), forKey: .timeToFirstToken)
        try container.encodeIfPresent(prefillTime.map(Self.microseconds), forKey: .prefillTime)
        try container.encode(Self.microseconds(decodeTime), forKey: .decodeTime)
        try container.encode(Self.microseconds(totalTime), forKey: .totalTime)
        try container.encode(interTokenLatencies.map(Self.microseconds), forKey: .interTokenLatencies)
        try container.encode(stopReason, forKey: .stopReason)
        try container.encodeIfPresent(peakResidentBytes, forKey: .peakResidentBytes)
        try container.encodeIfPresent(prefillPeakResidentBytes, forKey: .prefillPeakResidentBytes)
        try container.encodeIfPresent(decodePeakResidentBytes, forKey: .decodePeakResidentBytes)
        try container.encodeIfPresent(kvCacheBytesInUse, forKey: .kvCacheBytesInUse)
        try container.encodeIfPresent(evaluatedTokens, forKey: .evaluatedTokens)
        try container.encodeIfPresent(prefillTokensPerSecond, forKey: .prefillTokensPerSecond)
        try container.encodeIfPresent(decodeTokensPerSecond, forKey: .decodeTokensPerSecond)
        try container.encodeIfPresent(reuseRatio, forKey: .reuseRatio)
        try container.encodeIfPresent(interTokenLatency, forKey: .interTokenLatency)
    }
}
