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

    public struct UnknownPlaceholder: Error, Sendable, Hashable, CustomStringConvertible {
        public var name: String
        public var description: String { "unknown placeholder {{\(name)}}" }
    }

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

    public func render(_ lookup: (String) -> String?) throws(UnknownPlaceholder) -> String {
        var text = ""
        for segment in segments {
            switch segment {
            case .literal(let literal): text += literal
            case .placeholder(let name):
                guard let value = lookup(name) else { throw UnknownPlaceholder(name: name) }
                text += value
            }
        }
        return text
    }

    public var description: String { source }
}
