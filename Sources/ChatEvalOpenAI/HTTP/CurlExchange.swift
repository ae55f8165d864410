internal import CCurl
import Foundation
import Synchronization

/// What an exchange's callbacks share with it: passed to libcurl as user data, alive for the
/// length of `curl_easy_perform`.
final class CurlExchange: @unchecked Sendable {
    let continuation: AsyncThrowingStream<HTTPEvent, any Error>.Continuation
    let stopped = Atomic<Bool>(false)
    /// Asked with the body bytes passed on so far.
    let shouldStop: @Sendable (_ bodyBytes: Int) -> Bool
    let maximumHeaderBytes: Int
    var headerBytes = 0
    let maximumBodyBytes: Int
    var bodyBytes = 0
    /// Body bytes passed on that the consumer has not taken yet, and their bound (`HTTPRequest.maximumUnreadBytes`).
    private var unread = 0
    private let maximumUnreadBytes: Int
    private let taken = NSCondition()
    var block: [String] = []
    var headSent = false
    /// Set by a callback that ended the exchange on purpose, with why.
    var failure: HTTPTransportError?

    init(
        continuation: AsyncThrowingStream<HTTPEvent, any Error>.Continuation, bounds request: HTTPRequest,
        shouldStop: @escaping @Sendable (_ bodyBytes: Int) -> Bool
    ) {
        self.continuation = continuation
        maximumHeaderBytes = request.maximumHeaderBytes
        maximumBodyBytes = request.maximumBodyBytes ?? .max
        maximumUnreadBytes = max(request.maximumUnreadBytes, 1)
        self.shouldStop = shouldStop
    }

    /// A header line arrived ("HTTP/1.1 200 OK", "Name: value", or the blank line ending a block).
    func header(_ line: String) -> Bool {
        headerBytes += line.utf8.count
        guard headerBytes <= maximumHeaderBytes else {
            failure = HTTPTransportError(
                kind: .headersTooLarge, call: "header callback", code: 0,
                message: "the server sent more than \(maximumHeaderBytes >> 10) KiB of response headers")
            return false
        }
        let trimmed = line.trimmingCharacters(in: .newlines)
        guard trimmed.isEmpty else {
            block.append(trimmed)
            return true
        }
        // The end of a block: an interim response (100 Continue) starts over; the final one is the head.
        guard let statusLine = block.first, statusLine.hasPrefix("HTTP/") else {
            block = []
            return true
        }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        let status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        if (100..<200).contains(status) {
            block = []
            return true
        }
        let fields = block.dropFirst().compactMap { field -> (name: String, value: String)? in
            guard let colon = field.firstIndex(of: ":") else { return nil }
            return (
                String(field[..<colon]).trimmingCharacters(in: .whitespaces),
                String(field[field.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
        continuation.yield(.head(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: HTTPHeaders(fields)))
        headSent = true
        block = []
        return true
    }

    /// A buffer of the body arrived: passed on, unless it takes the body past its bound; waits
    /// first while the consumer has `maximumUnreadBytes` not yet taken (asking the time bounds and
    /// a stop every 0.1 s meanwhile, as libcurl's progress callback would).
    func body(_ data: Data) -> Bool {
        guard !stopped.load(ordering: .relaxed) else { return false }
        bodyBytes += data.count
        guard bodyBytes <= maximumBodyBytes else {
            failure = HTTPTransportError(
                kind: .bodyTooLarge, call: "write callback", code: 0,
                message: "the server sent more than \(maximumBodyBytes) bytes of response body")
            return false
        }
        taken.lock()
        while unread > 0, unread + data.count > maximumUnreadBytes {
            if shouldAbort() {
                taken.unlock()
                return false
            }
            _ = taken.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
        unread += data.count
        taken.unlock()
        continuation.yield(.body(data))
        return true
    }

    /// The consumer took `bytes` of the body.
    func took(_ bytes: Int) {
        taken.lock()
        unread -= bytes
        taken.signal()
        taken.unlock()
    }

    /// Called by libcurl at least once a second: true ends the exchange.
    func shouldAbort() -> Bool {
        stopped.load(ordering: .relaxed) || shouldStop(bodyBytes)
    }
}
