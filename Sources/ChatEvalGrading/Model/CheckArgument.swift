/// The arguments of a check, independent of any file format: a tree of scalars, lists and
/// ordered maps (the order of keys is kept, so errors and docs follow the author's order).
public enum CheckArgument: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case list([CheckArgument])
    case map(Map)

    /// An ordered map from keys to arguments. Later duplicates of a key are ignored by lookups.
    public struct Map: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
        public struct Field: Sendable, Hashable {
            public var key: String
            public var value: CheckArgument
            public init(key: String, value: CheckArgument) {
                self.key = key
                self.value = value
            }
        }

        public var fields: [Field]

        public init(_ fields: [Field] = []) { self.fields = fields }

        public init(dictionaryLiteral elements: (String, CheckArgument)...) {
            fields = elements.map { Field(key: $0.0, value: $0.1) }
        }

        public subscript(key: String) -> CheckArgument? {
            fields.first { $0.key == key }?.value
        }

        public var keys: [String] { fields.map(\.key) }

        public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
    }

    /// What kind of value this is, as error messages name it.
    public var kindName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .bool: "a boolean"
        case .list: "a list"
        case .map: "a map"
        }
    }

    /// A short rendering for messages (strings quoted, long values cut).
    public var shortDescription: String {
        switch self {
        case .string(let s): return "\"\(Excerpt.clip(s, to: 40))\""
        case .integer(let i): return String(i)
        case .number(let d): return String(d)
        case .bool(let b): return String(b)
        case .list(let items):
            return "[" + items.prefix(4).map(\.shortDescription).joined(separator: ", ") + (items.count > 4 ? ", …]" : "]")
        case .map(let map): return "{" + map.keys.prefix(4).joined(separator: ", ") + (map.fields.count > 4 ? ", …}" : "}")
        }
    }
}

extension CheckArgument: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: CheckArgument...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, CheckArgument)...) {
        self = .map(Map(elements.map { Map.Field(key: $0.0, value: $0.1) }))
    }
}
