import Foundation

/// Text with `{{name}}` placeholders, such as a user message that quotes an earlier answer:
/// `"You said {{turn1.answer}}. Why?"` or `"I live in {{vars.city}}."`.
///
/// `{{` always opens a placeholder; names are trimmed of surrounding spaces. Parsing fails on an
/// unterminated or empty placeholder, rendering fails on a name the lookup does not know.
public struct TemplateText: Sendable, Hashable, CustomStringConvertible {
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case placeholder(String)
    }

    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Character offset of the offending `{{` in the source.
        public var offset: Int
        public var message: String
        public var description: String { message }
    }

    /// Why a rendering failed: a name the lookup does not know, or a text that would grow past the limit.
    public enum RenderError: Error, Sendable, Hashable, CustomStringConvertible {
        case unknownPlaceholder(String)
        /// The expansion reached `bytes` (at least), more than `limit`.
        case tooLarge(bytes: Int, limit: Int)

        public var description: String {
            switch self {
            case .unknownPlaceholder(let name): "unknown placeholder {{\(name)}}"
            case .tooLarge(let bytes, let limit):
                "its placeholders expand to at least \(ByteCount.format(bytes)), "
                    + "more than the \(ByteCount.format(limit)) a message may have"
            }
        }
    }

    /// The most bytes a text may expand to. Placeholders quote earlier turns, and a turn quoting
    /// the previous one twice doubles with every turn: a suite of a few kilobytes could otherwise
    /// ask for gigabytes. 1 MiB is over 60 times a 4,096-token context.
    public static let maximumExpandedBytes = 1 << 20

    public let source: String
    public let segments: [Segment]

    public init(_ source: String) throws(ParseError) {
        self.source = source
        // One pass over the UTF-8 bytes ("{" and "}" are single bytes, never inside a multi-byte
        // character): linear in the text. Foundation's range(of:) on substrings recomputes UTF-16
        // offsets per call, which made 20,000 placeholders on one line take seconds.
        let bytes = source.utf8
        let brace = UInt8(ascii: "{"), closing = UInt8(ascii: "}")
        var segments: [Segment] = []
        var literalStart = bytes.startIndex
        var index = bytes.startIndex
        // The offset of an error is counted only when there is one.
        func offset(of position: String.Index) -> Int { source.distance(from: source.startIndex, to: position) }
        func isPair(_ at: String.Index, _ byte: UInt8) -> Bool {
            bytes[at] == byte && bytes.index(after: at) != bytes.endIndex && bytes[bytes.index(after: at)] == byte
        }
        while index != bytes.endIndex {
            guard isPair(index, brace) else {
                index = bytes.index(after: index)
                continue
            }
            let open = index
            if open > literalStart { segments.append(.literal(String(source[literalStart..<open]))) }
            let nameStart = bytes.index(open, offsetBy: 2)
            var close = nameStart
            while close != bytes.endIndex && !isPair(close, closing) { close = bytes.index(after: close) }
            guard close != bytes.endIndex else {
                throw ParseError(offset: offset(of: open), message: "placeholder opened with {{ is never closed with }}")
            }
            let name = source[nameStart..<close].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains("{") else {
                throw ParseError(offset: offset(of: open), message: "placeholder {{\(name)}} has no valid name")
            }
            segments.append(.placeholder(name))
            index = bytes.index(close, offsetBy: 2)
            literalStart = index
        }
        if literalStart != bytes.endIndex { segments.append(.literal(String(source[literalStart...]))) }
        self.segments = segments
    }

    /// A text with no placeholders (no parsing).
    public init(literal: String) {
        source = literal
        segments = literal.isEmpty ? [] : [.literal(literal)]
    }

    /// Names referenced, in order of appearance.
    public var placeholders: [String] {
        segments.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    /// The text with every placeholder replaced by `lookup`'s value; fails on an unknown name or
    /// when the result would exceed `limit` bytes of UTF-8 (checked before anything is appended).
    public func render(limit: Int = TemplateText.maximumExpandedBytes, _ lookup: (String) -> String?) throws(RenderError) -> String {
        var text = ""
        var bytes = 0
        for segment in segments {
            let piece: String
            switch segment {
            case .literal(let literal): piece = literal
            case .placeholder(let name):
                guard let value = lookup(name) else { throw .unknownPlaceholder(name) }
                piece = value
            }
            bytes += piece.utf8.count
            guard bytes <= limit else { throw .tooLarge(bytes: bytes, limit: limit) }
            text += piece
        }
        return text
    }

    /// The fewest bytes this text expands to, given the sizes `size` knows of its placeholders (0
    /// for those it does not, such as answers not yet given); saturating instead of overflowing.
    public func expandedSizeAtLeast(_ size: (String) -> Int?) -> Int {
        var total = 0
        for segment in segments {
            let piece: Int
            switch segment {
            case .literal(let literal): piece = literal.utf8.count
            case .placeholder(let name): piece = size(name) ?? 0
            }
            let (sum, overflow) = total.addingReportingOverflow(piece)
            total = overflow ? Int.max : sum
        }
        return total
    }

    public var description: String { source }
}
