import Foundation

/// A JSON value as data: what a user adds to a served runtime's requests (`extra_fields` in the
/// project file, `--request-field` on the command line) and what the runtime sends.
public enum JSONValue: Codable, Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The JSON text `data` as a value; nil when it is not JSON. Nine times faster than decoding
    /// through `init(from:)` (measured on IFBench lines): the decoder's type-probing cascade throws
    /// a `DecodingError` for every type it rules out, so importers reading a line at a time use this.
    public init?(parsing data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        self.init(serialized: object)
    }

    /// A `JSONSerialization` object as a value. A number's kind is read from its type encoding:
    /// `c` is how JSONSerialization writes true and false, `d`/`f` a number with a fraction or
    /// an exponent, the rest integers.
    private init(serialized object: Any) {
        switch object {
        case let text as String: self = .string(text)
        case let items as [Any]: self = .array(items.map(JSONValue.init(serialized:)))
        case let fields as [String: Any]: self = .object(fields.mapValues(JSONValue.init(serialized:)))
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "d", "f":
                // As the decoder reads it: a whole number written with a fraction or exponent (2.0, 1e2) is an integer.
                let value = number.doubleValue
                self = value == value.rounded() && abs(value) < 0x1p63 ? .integer(Int(value)) : .number(value)
            default:
                let integer = number.int64Value
                self = NSNumber(value: integer) == number ? .integer(Int(integer)) : .number(number.doubleValue)
            }
        default: self = .null
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value):  // JSON has no NaN or ∞
            if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Compact JSON text, keys sorted (for messages and the record).
    public var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
