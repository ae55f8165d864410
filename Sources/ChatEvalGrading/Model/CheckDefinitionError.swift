/// A check that cannot be built: which argument (as a key path from the check's own map), what is
/// wrong with it, and what would be right.
public struct CheckDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum PathComponent: Sendable, Hashable, CustomStringConvertible {
        case key(String)
        case index(Int)
        public var description: String {
            switch self {
            case .key(let k): k
            case .index(let i): "[\(i)]"
            }
        }
    }

    public enum Kind: String, Sendable, Hashable, Codable {
        case unknownType = "unknown_type"
        case unknownArgument = "unknown_argument"
        case missingArgument = "missing_argument"
        case wrongType = "wrong_type"
        case invalidValue = "invalid_value"
        case invalidRegex = "invalid_regex"
    }

    public var kind: Kind
    /// The check type being built (as written, so possibly unknown).
    public var checkType: String
    /// Where the problem is: `["value", .index(2)]` is the third item of `value`; empty for the type itself.
    public var path: [PathComponent]
    /// What is wrong, e.g. "is a string".
    public var problem: String
    /// What would be right, e.g. "an integer of 0 or more".
    public var expected: String?
    /// Nearest valid names for an unknown type or key, best first.
    public var suggestions: [String]
    /// What to write instead, when it can be said in a sentence (a promptfoo assertion's
    /// ChatEval equivalent); shown in place of `expected` and `suggestions`.
    public var hint: String?

    public init(
        kind: Kind, checkType: String, path: [PathComponent], problem: String,
        expected: String? = nil, suggestions: [String] = [], hint: String? = nil
    ) {
        self.hint = hint
        self.kind = kind
        self.checkType = checkType
        self.path = path
        self.problem = problem
        self.expected = expected
        self.suggestions = suggestions
    }

    /// The path as text: `value[2]`, `checks[0].value`.
    public var pathDescription: String {
        var text = ""
        for component in path {
            switch component {
            case .key(let k): text += text.isEmpty ? k : ".\(k)"
            case .index(let i): text += "[\(i)]"
            }
        }
        return text
    }

    /// One sentence: `check "contans": unknown check type; did you mean "contains"?`
    public var description: String {
        var text = "check \"\(checkType)\""
        if !path.isEmpty { text += ", argument \(pathDescription)" }
        text += ": \(problem)"
        if let hint { return text + "; \(hint)" }
        if let expected { text += "; expected \(expected)" }
        if !suggestions.isEmpty {
            text += "; did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: " or ") + "?"
        }
        return text
    }

    /// The same error seen from an enclosing argument (a nested check inside `all`, `not`...).
    func nested(under prefix: [PathComponent]) -> CheckDefinitionError {
        var copy = self
        copy.path = prefix + path
        return copy
    }
}
