import ChatEvalCore
import ChatEvalDigest

/// Why a connection could not be opened.
public struct OpenAIConnectionError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A setting is unusable (the message names it).
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// The named API key variable is not set.
        public static let missingAPIKey = Code(rawValue: "missing_api_key")
        /// Nothing answered at the base URL.
        public static let unreachable = Code(rawValue: "unreachable")
        /// The server refused the API key.
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// libcurl, the HTTP client, could not be loaded on this machine (the message says why).
        public static let libraryUnavailable = Code(rawValue: "library_unavailable")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
