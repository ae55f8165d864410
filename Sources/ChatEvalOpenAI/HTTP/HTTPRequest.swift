import Foundation

/// One request.
public struct HTTPRequest: Sendable {
    public var url: String
    /// GET, or POST when there is a body.
    public var body: Data?
    public var headers: [(name: String, value: String)]
    /// Seconds to establish the connection (TCP and TLS).
    public var connectTimeout: Double
    /// Response headers larger than this end the exchange (`headersTooLarge`).
    public var maximumHeaderBytes: Int
    /// A response body larger than this ends the exchange (`bodyTooLarge`), checked as libcurl
    /// hands over each buffer and before it is passed on: what waits for a slow consumer is
    /// bounded too. Nil: no bound.
    public var maximumBodyBytes: Int?

    public init(
        url: String, body: Data? = nil, headers: [(name: String, value: String)] = [], connectTimeout: Double = 10,
        maximumHeaderBytes: Int = 256 << 10, maximumBodyBytes: Int? = nil
    ) {
        self.url = url
        self.body = body
        self.headers = headers
        self.connectTimeout = connectTimeout
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumBodyBytes = maximumBodyBytes
    }
}
