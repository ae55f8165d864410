/// A turn that could not be answered, as a value: recorded in the results, the run goes on.
///
/// Built like an error with a nested code so that new codes do not break callers.
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
        /// The server refused the request for now (HTTP 429), after any retries.
        public static let rateLimited = Code(rawValue: "rate_limited")
        /// The server's event stream could not be read (not server-sent events, a chunk that is
        /// not the JSON it should be).
        public static let malformedStream = Code(rawValue: "malformed_stream")
        /// The server's answer stopped mid-stream (the connection closed before the turn finished).
        public static let streamInterrupted = Code(rawValue: "stream_interrupted")
        /// The model declined to answer and the API marked it so (`refusal`, `content_filter`).
        public static let refused = Code(rawValue: "refused")
        /// The server did not accept the credentials (HTTP 401 or 403).
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// The server rejected the request with another HTTP error.
        public static let httpError = Code(rawValue: "http_error")
        /// A safety guardrail outside the model stopped the prompt or the answer (Foundation
        /// Models' `guardrailViolation`, as a server bridging it reports it).
        public static let guardrailViolation = Code(rawValue: "guardrail_violation")
        /// The model does not take the prompt's language or locale (Foundation Models'
        /// `unsupportedLanguageOrLocale`).
        public static let unsupportedLanguage = Code(rawValue: "unsupported_language")
    }

    public var code: Code
    /// One sentence: what happened, with the numbers that matter. Registered secrets are redacted
    /// from it when it is made, before anything can cut or escape it (`Secrets`).
    public var message: String
    /// Attempts that failed before this final failure and were retried (a served runtime's
    /// transient failures); nil when the turn was tried once.
    public var retries: [RetryAttempt]?

    public init(_ code: Code, _ message: String, retries: [RetryAttempt]? = nil) {
        self.code = code
        self.message = Secrets.redact(message)
        self.retries = retries
    }

    public var description: String { "\(code): \(message)" }
}
