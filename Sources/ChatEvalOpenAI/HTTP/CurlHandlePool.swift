import Foundation
import Synchronization

/// Idle easy handles of one server connection, reused so that keep-alive connections are too.
public final class CurlHandlePool: Sendable {
    private let idle = Mutex<[CurlHandle]>([])

    public init() {}

    func take() throws(HTTPTransportError) -> CurlHandle {
        if let handle = idle.withLock({ $0.popLast() }) {
            handle.reset()
            return handle
        }
        return try CurlHandle()
    }

    func give(_ handle: CurlHandle) {
        idle.withLock { if $0.count < 16 { $0.append(handle) } }
    }

    /// Drops every idle handle (their connections close).
    public func close() { idle.withLock { $0.removeAll() } }
}
