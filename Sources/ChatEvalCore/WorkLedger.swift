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

/// A 64-bit FNV-1a digest of an answer: of its token ids when the runtime has them (`tokens`),
/// else of its UTF-8 text (`text`). Written as `tokens:<16 hex digits>` or `text:<16 hex digits>`;
/// two digests of different bases are never equal. Not a security digest: it tells answers apart.
public struct AnswerDigest: Codable, Sendable, Hashable, CustomStringConvertible {
    public enum Basis: String, Codable, Sendable, Hashable {
        case tokens, text
    }

    public var basis: Basis
    public var value: UInt64

    public init(basis: Basis, value: UInt64) {
        self.basis = basis
        self.value = value
    }

    /// The digest of token ids (each as 4 little-endian bytes).
    public static func of(tokens: [Int32]) -> AnswerDigest {
        var hash = FNV1a()
        for token in tokens {
            let bits = UInt32(bitPattern: token)
            for shift in stride(from: 0, to: 32, by: 8) { hash.add(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
        }
        return AnswerDigest(basis: .tokens, value: hash.value)
    }

    /// The digest of `text`'s UTF-8 bytes.
    public static func of(text: String) -> AnswerDigest {
        var hash = FNV1a()
        for byte in text.utf8 { hash.add(byte) }
        return AnswerDigest(basis: .text, value: hash.value)
    }

    public var description: String {
        let hex = String(value, radix: 16)
        return "\(basis.rawValue):\(String(repeating: "0", count: 16 - hex.count))\(hex)"
    }

    /// Reads `description`'s form back; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let basis = Basis(rawValue: String(parts[0])), parts[1].count == 16,
            let value = UInt64(parts[1], radix: 16)
        else { return nil }
        self.init(basis: basis, value: value)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let digest = AnswerDigest(text) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "not an answer digest (tokens:<16 hex> or text:<16 hex>): \(text)"))
        }
        self = digest
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// 64-bit FNV-1a over bytes.
private struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01b3
    }
}
