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
    /// Most body bytes held that the consumer has not taken yet: past them the exchange waits for
    /// it (and TCP slows the server down), so that a server sending faster than it is read costs
    /// this much memory, not the whole body bound.
    public var maximumUnreadBytes: Int

    public init(
        url: String, body: Data? = nil, headers: [(name: String, value: String)] = [], connectTimeout: Double = 10,
        maximumHeaderBytes: Int = 256 << 10, maximumBodyBytes: Int? = nil, maximumUnreadBytes: Int = 1 << 20
    ) {
        self.maximumUnreadBytes = maximumUnreadBytes
        self.url = url
        self.body = body
        self.headers = headers
        self.connectTimeout = connectTimeout
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumBodyBytes = maximumBodyBytes
    }
}
