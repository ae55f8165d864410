import ChatEvalCore

/// A JSON value as the answer's JSON checks parse it (`PythonJSON`, Python's `json` rules): kept
/// apart from Core's `JSONValue`, which models request fields, because a check must know whether
/// a number was written as an integer (`2` is an integer to Python, `2.0` is not).
indirect enum ParsedJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The value, and whether it was written without a fraction or exponent.
    case number(Double, integral: Bool)
    case string(String)
    case array([ParsedJSON])
    case object([String: ParsedJSON])

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(_, let integral): integral ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
