/// A problem in a suite file, located: file, line and column (1-based), what is wrong and, where
/// it can be said, what would be right.
public struct SuiteError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let unreadable = Code(rawValue: "unreadable")
        public static let notText = Code(rawValue: "not_text")
        public static let syntax = Code(rawValue: "syntax")
        public static let wrongType = Code(rawValue: "wrong_type")
        public static let unknownKey = Code(rawValue: "unknown_key")
        public static let missingKey = Code(rawValue: "missing_key")
        public static let duplicate = Code(rawValue: "duplicate")
        public static let invalidValue = Code(rawValue: "invalid_value")
        public static let tooComplex = Code(rawValue: "too_complex")
        /// A warning: valid, but almost certainly not what was meant.
        public static let suspicious = Code(rawValue: "suspicious")
    }

    /// Errors stop a suite from loading; warnings (a check that can never fail, a bound in a
    /// unit that looks mistaken) are reported and the suite still runs.
    public enum Severity: String, Sendable, Hashable {
        case error, warning
    }

    public var code: Code
    public var severity: Severity = .error
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String
    /// What would be right, e.g. "did you mean 'max_tokens'?".
    public var hint: String?

    public init(_ code: Code, file: String, line: Int? = nil, column: Int? = nil, _ message: String, hint: String? = nil) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.hint = hint
    }

    /// `suites/smoke.yaml:12:7: error: unknown key 'max_token' in defaults; did you mean 'max_tokens'?`
    public var description: String {
        var location = file
        if let line { location += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        return "\(location): \(severity.rawValue): \(message)" + (hint.map { "; \($0)" } ?? "")
    }
}
