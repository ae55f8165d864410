internal import CCurl
import Foundation
import Synchronization

/// HTTP for the served runtime: libcurl's easy interface through a module map (`CCurl`, Debian's
/// libcurl4-openssl-dev), each exchange on its own thread, its events handed to async code.
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
///
/// The exchange's events, in order: one `.head` (status and headers of the final response), then
/// `.body` chunks as they arrive. It ends normally, or throws an `HTTPTransportError`.
public enum HTTPEvent: Sendable {
    case head(status: Int, reason: String, headers: HTTPHeaders)
    case body(Data)
}

/// Response headers: names compared without case, values as sent.
public struct HTTPHeaders: Sendable, Hashable {
    public var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    public func first(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool { a.fields.elementsEqual(b.fields) { $0 == $1 } }
    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}

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
    }

    public var kind: Kind
    /// The libcurl call that failed, e.g. `curl_easy_perform`.
    public var call: String
    /// libcurl's code (CURLcode), 0 when the failure is ChatEval's own.
    public var code: Int
    public var message: String

    public var description: String { message }
}

/// One libcurl easy handle: the one owner of a `CURL *`, cleaned up when it goes. Kept and reused
/// by a pool so that its live connection (keep-alive) serves the next request to the same server.
final class CurlHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?

    private static let global: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init() throws(HTTPTransportError) {
        guard Self.global else {
            throw HTTPTransportError(kind: .setup, call: "curl_global_init", code: 0, message: "libcurl could not be initialised")
        }
        guard let pointer = curl_easy_init() else {
            throw HTTPTransportError(kind: .setup, call: "curl_easy_init", code: 0, message: "libcurl could not create a transfer")
        }
        self.pointer = pointer
    }

    deinit {
        curl_slist_free_all(headerList)
        curl_easy_cleanup(pointer)
    }

    /// Back to defaults for a new request; the connection cache stays.
    func reset() {
        curl_easy_reset(pointer)
        curl_slist_free_all(headerList)
        headerList = nil
    }

    func set(_ option: CURLoption, _ value: Int, _ name: String) throws(HTTPTransportError) {
        try check(ccurl_set_long(pointer, option, value), "curl_easy_setopt(\(name))")
    }

    func set(_ option: CURLoption, offset value: Int, _ name: String) throws(HTTPTransportError) {
        try check(ccurl_set_offset(pointer, option, curl_off_t(value)), "curl_easy_setopt(\(name))")
    }

    func set(_ option: CURLoption, _ value: String, _ name: String) throws(HTTPTransportError) {
        // libcurl copies strings it is given (since 7.17), so the C string may go after the call.
        try check(value.withCString { ccurl_set_string(pointer, option, $0) }, "curl_easy_setopt(\(name))")
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?, _ name: String) throws(HTTPTransportError) {
        try check(ccurl_set_pointer(pointer, option, value), "curl_easy_setopt(\(name))")
    }

    /// The request body, copied by libcurl (CURLOPT_COPYPOSTFIELDS): it may go after the call.
    func setCopyingBody(_ body: Data) throws(HTTPTransportError) {
        var bytes = [UInt8](body)
        if bytes.isEmpty { bytes = [0] }  // a valid pointer for an empty body; its size (set before) says 0
        let code = bytes.withUnsafeMutableBytes { ccurl_set_pointer(pointer, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        try check(code, "curl_easy_setopt(CURLOPT_COPYPOSTFIELDS)")
    }

    func setHeaders(_ headers: [(name: String, value: String)]) throws(HTTPTransportError) {
        for header in headers {
            guard let appended = curl_slist_append(headerList, "\(header.name): \(header.value)") else {
                throw HTTPTransportError(
                    kind: .setup, call: "curl_slist_append", code: 0, message: "libcurl could not hold the request headers")
            }
            headerList = appended
        }
        try check(ccurl_set_list(pointer, CURLOPT_HTTPHEADER, headerList), "curl_easy_setopt(CURLOPT_HTTPHEADER)")
    }

    func setCallbacks(context: UnsafeMutableRawPointer) throws(HTTPTransportError) {
        try check(ccurl_set_data_callback(pointer, CURLOPT_WRITEFUNCTION, curlWrite), "curl_easy_setopt(CURLOPT_WRITEFUNCTION)")
        try set(CURLOPT_WRITEDATA, pointer: context, "CURLOPT_WRITEDATA")
        try check(ccurl_set_data_callback(pointer, CURLOPT_HEADERFUNCTION, curlHeader), "curl_easy_setopt(CURLOPT_HEADERFUNCTION)")
        try set(CURLOPT_HEADERDATA, pointer: context, "CURLOPT_HEADERDATA")
        try check(ccurl_set_progress_callback(pointer, curlProgress), "curl_easy_setopt(CURLOPT_XFERINFOFUNCTION)")
        try set(CURLOPT_XFERINFODATA, pointer: context, "CURLOPT_XFERINFODATA")
        try set(CURLOPT_NOPROGRESS, 0, "CURLOPT_NOPROGRESS")
    }

    func status() -> Int {
        var code = 0
        _ = ccurl_get_long(pointer, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    private func check(_ code: CURLcode, _ call: String) throws(HTTPTransportError) {
        guard code != CURLE_OK else { return }
        throw HTTPTransportError(
            kind: .setup, call: call, code: Int(code.rawValue), message: "\(call) failed: \(String(cString: curl_easy_strerror(code)))")
    }
}

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

    /// A buffer of the body arrived: passed on, unless it takes the body past its bound.
    func body(_ data: Data) -> Bool {
        guard !stopped.load(ordering: .relaxed) else { return false }
        bodyBytes += data.count
        guard bodyBytes <= maximumBodyBytes else {
            failure = HTTPTransportError(
                kind: .bodyTooLarge, call: "write callback", code: 0,
                message: "the server sent more than \(maximumBodyBytes) bytes of response body")
            return false
        }
        continuation.yield(.body(data))
        return true
    }

    /// Called by libcurl at least once a second: true ends the exchange.
    func shouldAbort() -> Bool {
        stopped.load(ordering: .relaxed) || shouldStop(bodyBytes)
    }
}

private func exchange(_ pointer: UnsafeMutableRawPointer?) -> CurlExchange? {
    pointer.map { Unmanaged<CurlExchange>.fromOpaque($0).takeUnretainedValue() }
}

private let curlWrite: ccurl_data_callback = { bytes, size, count, user in
    guard let bytes, let exchange = exchange(user) else { return 0 }
    let length = size * count
    return exchange.body(Data(bytes: bytes, count: length)) ? length : 0
}

private let curlHeader: ccurl_data_callback = { bytes, size, count, user in
    guard let bytes, let exchange = exchange(user) else { return 0 }
    let length = size * count
    let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    return exchange.header(line) ? length : 0
}

private let curlProgress: ccurl_progress_callback = { user, _, _, _, _ in
    guard let exchange = exchange(user) else { return 1 }
    return exchange.shouldAbort() ? 1 : 0
}

public enum HTTPClient {
    /// Streams `request` on its own thread. Ending the consumer's iteration (or cancelling its
    /// task) stops the exchange within about a second; so does `shouldStop` returning true (the
    /// caller's time bounds), which libcurl asks at least once a second with the body bytes
    /// passed on so far.
    public static func stream(
        _ request: HTTPRequest, pool: CurlHandlePool, shouldStop: @escaping @Sendable (_ bodyBytes: Int) -> Bool = { _ in false }
    )
        -> AsyncThrowingStream<HTTPEvent, any Error>
    {
        AsyncThrowingStream { continuation in
            let exchange = CurlExchange(continuation: continuation, bounds: request, shouldStop: shouldStop)
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
        let code = curl_easy_perform(handle.pointer)
        if let failure = exchange.failure { throw failure }
        guard code == CURLE_OK else {
            let message = String(cString: curl_easy_strerror(code))
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
