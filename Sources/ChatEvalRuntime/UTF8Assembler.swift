/// Turns a stream of byte pieces into text without ever splitting a character.
///
/// Tokenizers cut text into byte pieces that need not end on a character boundary (one emoji can
/// span several tokens). `append` returns the longest complete UTF-8 text available and keeps an
/// incomplete tail for the next piece; bytes that can never form a character are replaced by
/// U+FFFD, as a decoder must.
public struct UTF8Assembler: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Adds bytes and returns the text that is now complete (possibly empty).
    public mutating func append<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        pending.append(contentsOf: bytes)
        let complete = completePrefixLength(of: pending)
        guard complete > 0 else { return "" }
        let text = String(decoding: pending[..<complete], as: UTF8.self)
        pending.removeFirst(complete)
        return text
    }

    /// Returns whatever is left (an incomplete tail decodes to U+FFFD) and empties the buffer.
    public mutating func flush() -> String {
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
    }

    /// Drops an unfinished character held back and empties the buffer: for an answer cut short
    /// (at `max_tokens`), whose last token ended inside a character that would have come whole
    /// with the next one — its end is a character boundary, not U+FFFD. Returns the bytes dropped.
    @discardableResult
    public mutating func discardUnfinished() -> Int {
        defer { pending.removeAll() }
        return pending.count
    }

    /// Bytes held back because they may start a character not yet complete.
    public var pendingByteCount: Int { pending.count }

    /// Length of the prefix that does not end inside a possibly-valid, unfinished sequence.
    private func completePrefixLength(of bytes: [UInt8]) -> Int {
        // A UTF-8 sequence is at most 4 bytes: look back at most 3 bytes for an unfinished lead byte.
        var index = bytes.count - 1
        let stop = Swift.max(bytes.count - 4, 0)
        while index >= stop {
            let byte = bytes[index]
            if byte & 0b1100_0000 != 0b1000_0000 {  // not a continuation byte
                let needed: Int
                switch byte {
                case 0xC2...0xDF: needed = 2
                case 0xE0...0xEF: needed = 3
                case 0xF0...0xF4: needed = 4
                default: return bytes.count  // ASCII or invalid: nothing to wait for
                }
                let available = bytes.count - index
                return available >= needed ? bytes.count : index
            }
            index -= 1
        }
        return bytes.count
    }
}
