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
    /// What a server reported about the turn itself (its own timings, cache use, the backend
    /// that served it); nil for an in-process runtime.
    public var server: ServerFigures?
    /// Attempts that failed transiently and were retried before this one answered; nil when the
    /// turn was answered at the first attempt. The times above are the answering attempt's.
    public var retries: [RetryAttempt]?
    /// Prompt tokens the cache held from the previous turn that this turn could have reused (the
    /// previous prompt and answer, as far as the new prompt is long enough to start with them);
    /// nil when the runtime cannot tell (a server).
    public var reusableTokens: Int?
    /// Why fewer tokens were reused than were reusable, where the cached and sent tokens diverge;
    /// nil when nothing reusable was missed.
    public var reuseMiss: ReuseMiss?
    /// Where the time to the first token went, measured part by part; nil when the runtime cannot
    /// tell (a server: its own `timings` are in `server`).
    public var firstTokenParts: FirstTokenParts?
    /// Engine evaluation calls for the turn (`llama_decode`: the prompt's batches and one per
    /// generated token decoded into the cache); nil when the runtime cannot tell (a server).
    public var decodeCalls: Int?
    /// Of `decodeCalls`, the batches that evaluated the prompt; nil when unknown.
    public var prefillBatches: Int?
    /// KV cache cells holding the conversation at the end of the turn: in process, the engine's
    /// own count of cached positions; served, the server's prompt plus generated tokens but the
    /// last (which it never decodes); nil when unknown.
    public var kvCellsInUse: Int?
    /// A digest of the answer's token ids (in process) or of its text (a server, which does not
    /// return token ids on chat completions); nil in records written before it.
    public var answerDigest: AnswerDigest?

    public init(
        promptTokens: Int, reusedTokens: Int?, generatedTokens: Int,
        timeToFirstToken: Double, prefillTime: Double?, decodeTime: Double, totalTime: Double,
        interTokenLatencies: [Double], stopReason: StopReason, peakResidentBytes: Int? = nil,
        prefillPeakResidentBytes: Int? = nil, decodePeakResidentBytes: Int? = nil, kvCacheBytesInUse: Int? = nil,
        server: ServerFigures? = nil, retries: [RetryAttempt]? = nil, reusableTokens: Int? = nil, reuseMiss: ReuseMiss? = nil,
        firstTokenParts: FirstTokenParts? = nil
    ) {
        self.firstTokenParts = firstTokenParts
        self.reusableTokens = reusableTokens
        self.reuseMiss = reuseMiss
        self.server = server
        self.retries = retries
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

    /// The turn's exact work as one value (see `WorkLedger`).
    public var ledger: WorkLedger {
        WorkLedger(
            promptTokens: promptTokens, reusableTokens: reusableTokens, reusedTokens: reusedTokens, evaluatedTokens: evaluatedTokens,
            generatedTokens: generatedTokens, decodeCalls: decodeCalls, prefillBatches: prefillBatches, kvCellsInUse: kvCellsInUse,
            stopReason: stopReason, answerDigest: answerDigest)
    }

    /// Prefill time per evaluated token, in seconds: how fast the work was done, apart from how
    /// much there was; nil when either is unknown or nothing was evaluated.
    public var prefillTimePerEvaluatedToken: Double? {
        guard let prefillTime, let evaluated = evaluatedTokens, evaluated > 0 else { return nil }
        return prefillTime / Double(evaluated)
    }

    /// Decode time per generated token after the first, in seconds; nil with fewer than two.
    public var decodeTimePerGeneratedToken: Double? {
        generatedTokens > 1 ? decodeTime / Double(generatedTokens - 1) : nil
    }

    /// Prompt tokens evaluated anew for this turn; nil when reuse is unknown.
    public var evaluatedTokens: Int? { reusedTokens.map { promptTokens - $0 } }

    /// Reused ÷ reusable (0...1): how much of what the cache could have served it did serve; nil
    /// when nothing was reusable (a first turn) or the runtime cannot tell; 0 in cold cache mode,
    /// which drops what the cache held before every turn.
    public var reuseEfficiency: Double? {
        guard let reusable = reusableTokens, reusable > 0, let reused = reusedTokens else { return nil }
        return min(1, Double(reused) / Double(reusable))
    }

    /// Reusable tokens that were evaluated again.
    public var missedTokens: Int? {
        guard let reusable = reusableTokens, let reused = reusedTokens else { return nil }
        return max(0, reusable - reused)
    }

    /// What the missed tokens cost: their count × this turn's measured prefill time per evaluated token.
    public var missedPrefillTime: Double? {
        guard let missed = missedTokens, missed > 0, let prefillTime, let evaluated = evaluatedTokens, evaluated > 0 else { return nil }
        return Double(missed) * prefillTime / Double(evaluated)
    }

    /// A served turn's time to the first token as far as the server tells it: the server's own
    /// prefill (`timings.prompt_ms`) and the rest, which no server breaks down (sending the
    /// request, queueing, the template, sampling the first token, the network back). Nil in
    /// process (`firstTokenParts` has every part) and for a server that sends no timings. The
    /// prefill is at most the TTFT: the two are read on different clocks; `reevaluated` is the
    /// part of it spent on reusable tokens the cache lost (`missedPrefillTime`).
    public var servedFirstTokenSplit: (serverPrefill: Double, reevaluated: Double, notBrokenDown: Double)? {
        guard firstTokenParts == nil, let prefill = server?.prefillTime, prefill.isFinite, prefill >= 0 else { return nil }
        let within = min(prefill, timeToFirstToken)
        return (within, min(missedPrefillTime ?? 0, within), timeToFirstToken - within)
    }

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
        case server, retries, reusableTokens, reuseMiss, firstTokenParts
        case decodeCalls, prefillBatches, kvCellsInUse, answerDigest
        // Derived, written for readers of result files; ignored when decoding.
        case evaluatedTokens, prefillTokensPerSecond, decodeTokensPerSecond, reuseRatio, interTokenLatency
        case reuseEfficiency, missedPrefillTime
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
            kvCacheBytesInUse: try container.decodeIfPresent(Int.self, forKey: .kvCacheBytesInUse),
            server: try container.decodeIfPresent(ServerFigures.self, forKey: .server),
            retries: try container.decodeIfPresent([RetryAttempt].self, forKey: .retries),
            reusableTokens: try container.decodeIfPresent(Int.self, forKey: .reusableTokens),
            reuseMiss: try container.decodeIfPresent(ReuseMiss.self, forKey: .reuseMiss),
            firstTokenParts: try container.decodeIfPresent(FirstTokenParts.self, forKey: .firstTokenParts))
        decodeCalls = try container.decodeIfPresent(Int.self, forKey: .decodeCalls)
        prefillBatches = try container.decodeIfPresent(Int.self, forKey: .prefillBatches)
        kvCellsInUse = try container.decodeIfPresent(Int.self, forKey: .kvCellsInUse)
        answerDigest = try container.decodeIfPresent(AnswerDigest.self, forKey: .answerDigest)
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
        try container.encodeIfPresent(server, forKey: .server)
        try container.encodeIfPresent(retries, forKey: .retries)
        try container.encodeIfPresent(reusableTokens, forKey: .reusableTokens)
        try container.encodeIfPresent(reuseMiss, forKey: .reuseMiss)
        try container.encodeIfPresent(firstTokenParts, forKey: .firstTokenParts)
        try container.encodeIfPresent(decodeCalls, forKey: .decodeCalls)
        try container.encodeIfPresent(prefillBatches, forKey: .prefillBatches)
        try container.encodeIfPresent(kvCellsInUse, forKey: .kvCellsInUse)
        try container.encodeIfPresent(answerDigest, forKey: .answerDigest)
        try container.encodeIfPresent(reuseEfficiency, forKey: .reuseEfficiency)
        try container.encodeIfPresent(missedPrefillTime.map(Self.microseconds), forKey: .missedPrefillTime)
        try container.encodeIfPresent(evaluatedTokens, forKey: .evaluatedTokens)
        try container.encodeIfPresent(prefillTokensPerSecond, forKey: .prefillTokensPerSecond)
        try container.encodeIfPresent(decodeTokensPerSecond, forKey: .decodeTokensPerSecond)
        try container.encodeIfPresent(reuseRatio, forKey: .reuseRatio)
        try container.encodeIfPresent(interTokenLatency, forKey: .interTokenLatency)
    }
}
