internal import CCurl
import Foundation

/// HTTP for the served runtime: libcurl's easy interface through a small C module (`CCurl`, Debian's
/// libcurl4-openssl-dev) that loads libcurl on the first exchange, each exchange on its own
/// thread, its events handed to async code.
///
/// Chosen by measurement over the two alternatives (README, "Served models"):
/// - AsyncHTTPClient compiled swift-nio, swift-nio-ssl (a second copy of BoringSSL: 406 C
///   objects), swift-nio-http2, swift-certificates and more into every fresh build — 871 build
///   steps, 690 s of a 970-s cold `make run` on 2 cores — for one streamed POST and two GETs.
///   With libcurl the same release build is 47 steps and 160 s (README, "A fresh start").
/// - FoundationNetworking's URLSession builds nothing either, but on Linux it has no streaming
///   `bytes(for:)`, its idle timeout restarts at every byte (a server sending a byte a second
///   holds a turn for ever), and its errors lose libcurl's codes, on which the typed failures rest.
/// libcurl builds nothing, streams through a callback, aborts from a progress callback that runs
/// at least once a second (cancellation and the stall bound within a second), bounds the header
/// size, and keeps connections alive within a pooled handle (`CurlHandlePool`).
public enum HTTPClient {
    /// Streams `request` on its own thread. Ending the consumer's iteration (or cancelling its
    /// task) stops the exchange within about a second; so does `shouldStop` returning true (the
    /// caller's time bounds), which libcurl asks at least once a second with the body bytes
    /// passed on so far.
    public static func stream(
        _ request: HTTPRequest, pool: CurlHandlePool, shouldStop: @escaping @Sendable (_ bodyBytes: Int) -> Bool = { _ in false }
    )
        -> HTTPEventStream
    {
        var started: CurlExchange?
        let events = AsyncThrowingStream<HTTPEvent, any Error> { continuation in
            let exchange = CurlExchange(continuation: continuation, bounds: request, shouldStop: shouldStop)
            started = exchange
            continuation.onTermination = { _ in exchange.stopped.store(true, ordering: .relaxed) }
            let thread = Thread {
                do {
                    try perform(request, exchange: exchange, pool: pool)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            thread.name = "chateval-http"
            thread.start()
        }
        // AsyncThrowingStream runs its closure at once: the exchange is there.
        return HTTPEventStream(events: events, exchange: started)
    }

    /// GETs (or POSTs) `request` whole: status, headers and at most `maximumBytes` of body;
    /// `timeout` bounds the whole exchange.
    public static func fetch(_ request: HTTPRequest, pool: CurlHandlePool, timeout: Double, maximumBytes: Int = 8 << 20)
        async throws(HTTPTransportError) -> (status: Int, headers: HTTPHeaders, body: Data)
    {
        let started = ContinuousClock.now
        var status = 0
        var headers = HTTPHeaders()
        var body = Data()
        let tooSlow: @Sendable () -> Bool = { ContinuousClock.now - started > .seconds(timeout) }
        do {
            for try await event in stream(request, pool: pool, shouldStop: { _ in tooSlow() }) {
                switch event {
                case .head(let code, _, let fields):
                    status = code
                    headers = fields
                case .body(let data):
                    body.append(data.prefix(maximumBytes - body.count))
                    if body.count >= maximumBytes { return (status, headers, body) }
                }
            }
        } catch let error as HTTPTransportError {
            if error.kind == .stopped, tooSlow() {
                throw HTTPTransportError(
                    kind: .stopped, call: error.call, code: error.code, message: "no complete answer within \(Int(timeout.rounded())) s")
            }
            throw error
        } catch {
            throw HTTPTransportError(kind: .broken, call: "fetch", code: 0, message: String(describing: error))
        }
        return (status, headers, body)
    }

    /// The blocking part: set up a pooled handle, perform, map the outcome.
    private static func perform(_ request: HTTPRequest, exchange: CurlExchange, pool: CurlHandlePool) throws(HTTPTransportError) {
        let handle = try pool.take()
        let context = Unmanaged.passRetained(exchange)
        defer { context.release() }
        try handle.set(CURLOPT_URL, request.url, "CURLOPT_URL")
        try handle.set(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        try handle.set(CURLOPT_CONNECTTIMEOUT_MS, Int((request.connectTimeout * 1000).rounded()), "CURLOPT_CONNECTTIMEOUT_MS")
        try handle.set(CURLOPT_FOLLOWLOCATION, 0, "CURLOPT_FOLLOWLOCATION")
        try handle.set(CURLOPT_TCP_KEEPALIVE, 1, "CURLOPT_TCP_KEEPALIVE")
        try handle.setHeaders(request.headers + [("Expect", "")])  // no 100-continue round trip before a body
        if let body = request.body {
            try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: body.count, "CURLOPT_POSTFIELDSIZE_LARGE")
            // COPYPOSTFIELDS copies the body: it may go once the option is set.
            try handle.setCopyingBody(body)
        }
        try handle.setCallbacks(context: context.toOpaque())
        let code = ccurl_easy_perform(handle.pointer)
        if let failure = exchange.failure { throw failure }
        guard code == CURLE_OK else {
            let message = String(cString: ccurl_easy_strerror(code))
            let kind: HTTPTransportError.Kind
            if code == CURLE_ABORTED_BY_CALLBACK
                || (code == CURLE_WRITE_ERROR && exchange.shouldAbort())
            {
                kind = .stopped
            } else if code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_COULDNT_RESOLVE_PROXY {
                kind = .unreachable
            } else if code == CURLE_OPERATION_TIMEDOUT && !exchange.headSent {
                kind = .connectTimeout
            } else {
                kind = .broken
            }
            throw HTTPTransportError(kind: kind, call: "curl_easy_perform", code: Int(code.rawValue), message: message)
        }
        if !exchange.headSent {
            // A response whose header block never ended (HTTP/0.9, or a cut connection).
            throw HTTPTransportError(
                kind: .broken, call: "curl_easy_perform", code: 0, message: "the server closed the connection before its headers ended")
        }
        pool.give(handle)
    }
}

/// The events of one exchange; taking a piece of the body tells the exchange, which holds at most
/// `HTTPRequest.maximumUnreadBytes` that were not taken.
public struct HTTPEventStream: AsyncSequence, Sendable {
    public typealias Element = HTTPEvent
    let events: AsyncThrowingStream<HTTPEvent, any Error>
    let exchange: CurlExchange?

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<HTTPEvent, any Error>.AsyncIterator
        let exchange: CurlExchange?

        public mutating func next() async throws -> HTTPEvent? {
            let event = try await base.next()
            if case .body(let data) = event { exchange?.took(data.count) }
            return event
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: events.makeAsyncIterator(), exchange: exchange) }
}
