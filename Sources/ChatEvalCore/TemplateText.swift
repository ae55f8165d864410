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
        var segments: [Segment] = []
        var rest = source[...]
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { segments.append(.literal(String(rest[..<open.lowerBound]))) }
            let offset = source.distance(from: source.startIndex, to: open.lowerBound)
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw ParseError(offset: offset, message: "placeholder opened with {{ is never closed with }}")
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains("{") else {
                throw ParseError(offset: offset, message: "placeholder {{\(name)}} has no valid name")
            }
            segments.append(.placeholder(name))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { segments.append(.literal(String(rest))) }
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
