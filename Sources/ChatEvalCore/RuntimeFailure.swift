/// A turn that could not be answered, as a value: recorded in the results, the run goes on.
///
/// Built like an error with a nested code so that new codes do not break callers; equality
/// compares code and message.
public struct RuntimeFailure: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    public struct Code: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The rendered history (plus room to answer) does not fit the context window.
        public static let contextOverflow = Code(rawValue: "context_overflow")
        /// The chat template could not render the messages.
        public static let templateFailed = Code(rawValue: "template_failed")
        /// The text could not be turned into tokens.
        public static let tokenizationFailed = Code(rawValue: "tokenization_failed")
        /// The engine failed while evaluating tokens.
        public static let decodeFailed = Code(rawValue: "decode_failed")
        /// The runtime could not be reached (a server that is gone).
        public static let unavailable = Code(rawValue: "unavailable")
        /// The turn took longer than allowed.
        public static let timeout = Code(rawValue: "timeout")
        /// The turn was cancelled (the run was interrupted).
        public static let cancelled = Code(rawValue: "cancelled")
        /// The runtime answered something the harness cannot use.
        public static let invalidResponse = Code(rawValue: "invalid_response")
    }

    public var code: Code
    /// One sentence: what happened, with the numbers that matter.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
