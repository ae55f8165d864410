/// The exact work one turn did, as counts: what was sent, what the cache served, what was
/// evaluated and generated, how many engine calls it took, what the cache held afterwards, why
/// the answer ended and a digest of the answer itself.
///
/// Under greedy decoding (or sampling with a fixed seed on one build) every entry is the same on
/// every repetition and every machine, so a difference between two runs is a fact, not a sample:
/// comparing ledgers needs one repetition per side. Timings are deliberately not part of it.
/// Absent entries are unknown (a server that does not say), never 0.
public struct WorkLedger: Codable, Sendable, Hashable {
    /// Tokens of the whole rendered history sent this turn.
    public var promptTokens: Int
    /// Tokens the cache held from the previous turn that this turn could have reused.
    public var reusableTokens: Int?
    /// Prompt tokens served from the cache.
    public var reusedTokens: Int?
    /// Prompt tokens evaluated (prefilled) anew: prompt − reused.
    public var evaluatedTokens: Int?
    /// Tokens generated, an end-of-generation token included.
    public var generatedTokens: Int
    /// Engine evaluation calls for the turn (in process: `llama_decode` calls, the prompt's
    /// batches and one per generated token decoded into the cache).
    public var decodeCalls: Int?
    /// Of `decodeCalls`, the batches that evaluated the prompt.
    public var prefillBatches: Int?
    /// KV cache cells holding this conversation at the end of the turn (in process: the engine's
    /// own count of positions; served: the server's prompt plus generated tokens but the last).
    public var kvCellsInUse: Int?
    public var stopReason: StopReason
    /// A digest of the answer: of its token ids where the runtime has them, else of its text.
    public var answerDigest: AnswerDigest?

    public init(
        promptTokens: Int, reusableTokens: Int? = nil, reusedTokens: Int? = nil, evaluatedTokens: Int? = nil, generatedTokens: Int,
        decodeCalls: Int? = nil, prefillBatches: Int? = nil, kvCellsInUse: Int? = nil, stopReason: StopReason,
        answerDigest: AnswerDigest? = nil
    ) {
        self.promptTokens = promptTokens
        self.reusableTokens = reusableTokens
        self.reusedTokens = reusedTokens
        self.evaluatedTokens = evaluatedTokens
        self.generatedTokens = generatedTokens
        self.decodeCalls = decodeCalls
        self.prefillBatches = prefillBatches
        self.kvCellsInUse = kvCellsInUse
        self.stopReason = stopReason
        self.answerDigest = answerDigest
    }

    /// Reused ÷ reusable (0...1); nil when nothing was reusable or either is unknown.
    public var reuseEfficiency: Double? {
        guard let reusable = reusableTokens, reusable > 0, let reused = reusedTokens else { return nil }
        return min(1, Double(reused) / Double(reusable))
    }

    /// The entries as named counts, in a fixed order, for reports that list what differs; the
    /// answer digest and stop reason are compared apart. Unknown entries are left out.
    public var counts: [(name: String, value: Int)] {
        let all: [(String, Int?)] = [
            ("prompt", promptTokens), ("reusable", reusableTokens), ("reused", reusedTokens), ("evaluated", evaluatedTokens),
            ("generated", generatedTokens), ("decode calls", decodeCalls), ("prefill batches", prefillBatches),
            ("KV cells", kvCellsInUse),
        ]
        return all.compactMap { name, value in value.map { (name, $0) } }
    }
}
