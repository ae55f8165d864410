/// Why an exchange ended without a complete response: what happened, and the libcurl call and
/// code that said so.
public struct HTTPTransportError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Nothing listens at the address (connection refused, host unknown, no route).
        case unreachable
        /// Connecting took longer than the connect timeout.
        case connectTimeout
        /// The response's headers exceeded `HTTPRequest.maximumHeaderBytes`.
        case headersTooLarge
        /// The response's body exceeded `HTTPRequest.maximumBodyBytes`.
        case bodyTooLarge
        /// The caller stopped the exchange (cancelled, or its stall bound or answer bound reached).
        case stopped
        /// The connection broke or the response was cut short.
        case broken
        /// libcurl could not set up the exchange (an option it refused, no memory).
        case setup
        /// libcurl itself could not be loaded (it is loaded on the first exchange): no exchange can
        /// happen in this process.
        case libraryUnavailable
    }

    public var kind: Kind
    /// The libcurl call that failed, e.g. `curl_easy_perform`.
    public var call: String
    /// libcurl's code (CURLcode), 0 when the failure is ChatEval's own.
    public var code: Int
    public var message: String

    public var description: String { message }
}
