import Foundation

/// The exchange's events, in order: one `.head` (status and headers of the final response), then
/// `.body` chunks as they arrive. It ends normally, or throws an `HTTPTransportError`.
public enum HTTPEvent: Sendable {
    case head(status: Int, reason: String, headers: HTTPHeaders)
    case body(Data)
}
