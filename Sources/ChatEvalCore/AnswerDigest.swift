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
