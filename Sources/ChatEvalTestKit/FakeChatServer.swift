import Foundation
import Synchronization

/// A scripted OpenAI-compatible server on 127.0.0.1 (a port the system picks), for tests of HTTP
/// runtimes: it records every request and answers chat requests from a script, one reply per
/// request, in order.
///
/// HTTP/1.1 over POSIX sockets, a thread per connection: enough for a test peer that must also
/// misbehave on purpose — trickle its head a byte at a time, send a body that is not what its
/// head says, never stop streaming — which a framework's server is built not to do. (swift-nio
/// served here before; it was the last reason every fresh build compiled it.)
///
/// Use it through `FakeChatServer.run(_:body:)`, which stops it (and every connection) when the
/// body returns or throws. Nothing it does takes longer than `maximumStall`.
public actor FakeChatServer {
    /// One request as the server received it.
    public struct Request: Sendable, Hashable {
        public var method: String
        public var path: String
        /// Header names lowercased.
        public var headers: [String: String]
        public var body: String

        /// The body as a JSON object, when it is one.
        public var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] }
    }

    /// How the server answers one chat request.
    public enum Reply: Sendable {
        /// 200 with an event stream: each text is sent as `data: TEXT` and a blank line, `gap`
        /// apart; then the body ends. `headers` are added to the response.
        case events([String], gap: Duration = .zero, headers: [String: String] = [:])
        /// The events, then the connection closes in the middle of the body.
        case cut([String])
        /// 200 with an event stream's head, then nothing at all for up to `maximumStall`.
        case stall
        /// Any status with a body (an error as a server sends it).
        case status(Int, body: String, headers: [String: String] = [:])
        /// The connection closes before any answer.
        case close
        /// A 200 event-stream head sent one byte every `gap` (a slowloris peer), then nothing.
        case tricklingHead(gap: Duration)
        /// 200 with an event stream that never ends: the same chunk every `gap`, whatever
        /// `max_tokens` asked, until the client goes.
        case endless(String, gap: Duration)
        /// These bytes as they are, then the connection closes (a body that is not what its head
        /// says, headers of any size).
        case raw(Data)
        /// 200 with an event stream written as `parts`, in order, then the body ends.
        case script([Part])
    }

    /// A piece of a scripted event-stream body.
    public enum Part: Sendable {
        /// This text as it is: events, comments, `data:` lines with no blank line — anything.
        case text(String)
        /// Nothing sent for this long.
        case pause(Duration)
        /// `text` every `gap` (`.zero`: as fast as the client reads) until the client goes, for
        /// up to `maximumStall`; then the connection closes.
        case forever(String, gap: Duration)
        /// Nothing sent until `condition` holds (asked every 20 ms), for up to `maximumStall`;
        /// then the body goes on either way. Holds an answer open until the client has shown
        /// something — the order a test asserts, whatever the machine's load.
        case until(@Sendable () -> Bool)
    }

    /// Longest the server holds a connection without sending, or sends without end (`.stall`,
    /// `.tricklingHead`, `.endless`, `.forever`).
    public static let maximumStall: Duration = .seconds(30)

    public nonisolated let port: Int
    private nonisolated let state: Mutex<State>
    private nonisolated let listener: Int32

    private struct State {
        var requests: [Request] = []
        var maximumInFlight = 0
        var inFlight = 0
        var replies: [Reply]
        var stopping = false
        var connections: Set<Int32> = []
    }

    private let fallback: Reply
    private let routes: [String: Reply]

    public var requests: [Request] { state.withLock { $0.requests } }
    /// Most chat requests being answered at the same time.
    public var maximumInFlight: Int { state.withLock { $0.maximumInFlight } }
    /// The chat requests received (POST …/chat/completions), in order.
    public var chatRequests: [Request] { requests.filter { $0.path.hasSuffix("/chat/completions") } }

    private init(port: Int, listener: Int32, replies: [Reply], fallback: Reply, routes: [String: Reply]) {
        self.port = port
        self.listener = listener
        state = Mutex(State(replies: replies))
        self.fallback = fallback
        self.routes = routes
    }

    /// `http://127.0.0.1:PORT/v1`.
    public nonisolated var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// Starts a server answering chat requests with `replies` in order (then `fallback`), and
    /// other paths (`/props`, `/v1/models`) from `routes` (else 404); runs `body`; stops the server.
    public static func run<T: Sendable>(
        replies: [Reply], fallback: Reply = .status(500, body: #"{"error":{"message":"the fake server has no more replies"}}"#),
        routes: [String: Reply] = [:], body: (FakeChatServer) async throws -> T
    ) async throws -> T {
        let (listener, port) = try listen()
        let server = FakeChatServer(port: port, listener: listener, replies: replies, fallback: fallback, routes: routes)
        let accepting = Thread { server.acceptLoop() }
        accepting.name = "fake-server-accept"
        accepting.start()
        defer { server.stop() }
        return try await body(server)
    }

    /// A listening socket on 127.0.0.1 and the port the system gave it.
    private static func listen() throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw FakeServerError(message: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && Glibc.listen(descriptor, 64) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ready else {
            close(descriptor)
            throw FakeServerError(message: "the fake server could not listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Stops accepting, closes every connection, and makes the threads serving them end.
    private nonisolated func stop() {
        let open = state.withLock { state -> Set<Int32> in
            state.stopping = true
            return state.connections
        }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    private nonisolated var stopping: Bool { state.withLock { $0.stopping } }

    private nonisolated func acceptLoop() {
        while !stopping {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            guard
                state.withLock({ state -> Bool in
                    guard !state.stopping else { return false }
                    state.connections.insert(connection)
                    return true
                })
            else {
                close(connection)
                return
            }
            let thread = Thread { [self] in
                serve(connection)
                state.withLock { _ = $0.connections.remove(connection) }
                close(connection)
            }
            thread.name = "fake-server-connection"
            thread.start()
        }
    }

    // MARK: Requests

    /// Reads requests from one connection and answers each, until it closes.
    private nonisolated func serve(_ connection: Int32) {
        var reader = RequestReader(descriptor: connection)
        while !stopping, let request = reader.next() {
            let reply = record(request)
            let keepOpen = answer(reply, on: connection)
            answered(request)
            guard keepOpen else { return }
        }
    }

    private nonisolated func record(_ request: Request) -> Reply {
        state.withLock { state in
            state.requests.append(request)
            guard request.path.hasSuffix("/chat/completions") else { return routes[request.path] ?? .status(404, body: "not found") }
            state.inFlight += 1
            state.maximumInFlight = max(state.maximumInFlight, state.inFlight)
            return state.replies.isEmpty ? fallback : state.replies.removeFirst()
        }
    }

    private nonisolated func answered(_ request: Request) {
        if request.path.hasSuffix("/chat/completions") { state.withLock { $0.inFlight -= 1 } }
    }

    // MARK: Replies

    /// Writes one reply; false when the connection must close afterwards (or broke).
    private nonisolated func answer(_ reply: Reply, on connection: Int32) -> Bool {
        func head(_ status: Int, _ headers: [String: String], eventStream: Bool, length: Int? = nil) -> String {
            var lines = [
                "HTTP/1.1 \(status) \(Self.reason(status))", "Content-Type: \(eventStream ? "text/event-stream" : "application/json")",
            ]
            lines.append(length.map { "Content-Length: \($0)" } ?? "Transfer-Encoding: chunked")
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
            return lines.joined(separator: "\r\n") + "\r\n\r\n"
        }
        /// One chunk of a chunked body.
        func chunk(_ text: String) -> String {
            let bytes = text.utf8.count
            return String(bytes, radix: 16) + "\r\n" + text + "\r\n"
        }
        func event(_ text: String) -> String { chunk("data: \(text)\n\n") }

        switch reply {
        case .events(let events, let gap, let headers):
            guard send(head(200, headers, eventStream: true), on: connection) else { return false }
            for text in events {
                if gap > .zero, !pause(gap) { return false }
                guard send(event(text), on: connection) else { return false }
            }
            return send("0\r\n\r\n", on: connection)
        case .cut(let events):
            guard send(head(200, [:], eventStream: true), on: connection) else { return false }
            for text in events { guard send(event(text), on: connection) else { return false } }
            return false
        case .stall:
            guard send(head(200, [:], eventStream: true), on: connection) else { return false }
            _ = pause(Self.maximumStall)
            return false
        case .status(let status, let text, let headers):
            return send(head(status, headers, eventStream: false, length: text.utf8.count) + text, on: connection)
        case .close:
            return false
        case .tricklingHead(let gap):
            let start = ContinuousClock.now
            for byte in head(200, [:], eventStream: true).utf8 {
                guard ContinuousClock.now - start < Self.maximumStall, send(Data([byte]), on: connection), pause(gap) else { return false }
            }
            return false
        case .endless(let text, let gap):
            return answer(.script([.forever("data: \(text)\n\n", gap: gap)]), on: connection)
        case .raw(let data):
            _ = send(data, on: connection)
            return false
        case .script(let parts):
            guard send(head(200, [:], eventStream: true), on: connection) else { return false }
            for part in parts {
                switch part {
                case .text(let text):
                    guard send(chunk(text), on: connection) else { return false }
                case .pause(let duration):
                    guard pause(duration) else { return false }
                case .forever(let text, let gap):
                    let bytes = Data(chunk(text).utf8)
                    let start = ContinuousClock.now
                    while ContinuousClock.now - start < Self.maximumStall {
                        guard send(bytes, on: connection), gap == .zero || pause(gap) else { return false }
                    }
                    return false
                case .until(let condition):
                    let start = ContinuousClock.now
                    while !condition(), ContinuousClock.now - start < Self.maximumStall {
                        guard pause(.milliseconds(20)) else { return false }
                    }
                }
            }
            return send("0\r\n\r\n", on: connection)
        }
    }

    /// Sleeps `duration` in short steps; false when the server stopped meanwhile.
    private nonisolated func pause(_ duration: Duration) -> Bool {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {
            if stopping { return false }
            let left = end - ContinuousClock.now
            Thread.sleep(forTimeInterval: min(0.02, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18))
        }
        return !stopping
    }

    private nonisolated func send(_ text: String, on connection: Int32) -> Bool { send(Data(text.utf8), on: connection) }

    /// Writes all of `data`; false when the peer went away.
    private nonisolated func send(_ data: Data, on connection: Int32) -> Bool {
        data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.send(connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// Reads HTTP/1.1 requests from a socket: the request line, headers, and a body of
/// `Content-Length` bytes (what libcurl sends for a POST).
private struct RequestReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next request, or nil when the connection closed (or sent nonsense).
    mutating func next() -> FakeChatServer.Request? {
        guard let headEnd = readUntilHeadEnds() else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap(Int.init) ?? 0
        while buffer.count < length {
            guard receive() else { return nil }
        }
        let body = String(decoding: buffer.prefix(length), as: UTF8.self)
        buffer.removeFirst(length)
        return FakeChatServer.Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
    }

    /// Reads until the buffer holds a blank line; its offset, or nil when the peer closed.
    private mutating func readUntilHeadEnds() -> Int? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var searched = 0
        while true {
            if buffer.count >= 4 {
                for index in max(0, searched - 3)...(buffer.count - 4) where Array(buffer[index..<index + 4]) == terminator { return index }
                searched = buffer.count
            }
            guard buffer.count < 1 << 20, receive() else { return nil }
        }
    }

    private mutating func receive() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        if count < 0 && errno == EINTR { return receive() }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}

extension FakeChatServer {
    /// The chunks a llama-server streams for `pieces` of answer text: a role chunk, one chunk per
    /// piece, the finish chunk, the usage chunk with `timings`, and `[DONE]`.
    public static func llamaServerEvents(
        _ pieces: [String], finish: String = "stop", promptTokens: Int = 20, cached: Int? = 0, completionTokens: Int? = nil,
        includeTimings: Bool = true
    ) -> [String] {
        let generated = completionTokens ?? pieces.count
        var events = [
            #"{"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"object":"chat.completion.chunk"}"#
        ]
        for piece in pieces {
            let escaped =
                String(
                    data: (try? JSONSerialization.data(withJSONObject: [piece], options: [.fragmentsAllowed])) ?? Data("[\"\"]".utf8),
                    encoding: .utf8) ?? "[\"\"]"
            events.append(
                #"{"choices":[{"finish_reason":null,"index":0,"delta":{"content":"# + String(escaped.dropFirst().dropLast())
                    + #"}}],"object":"chat.completion.chunk"}"#)
        }
        events.append(#"{"choices":[{"finish_reason":"\#(finish)","index":0,"delta":{}}],"object":"chat.completion.chunk"}"#)
        let details = cached.map { #","prompt_tokens_details":{"cached_tokens":\#($0)}"# } ?? ""
        let timings =
            includeTimings
            ? #","timings":{"cache_n":\#(cached ?? 0),"prompt_n":\#(promptTokens - (cached ?? 0)),"prompt_ms":12.5,"#
                + #""prompt_per_second":800.0,"predicted_n":\#(generated),"predicted_ms":40.0,"predicted_per_second":100.0}"#
            : ""
        events.append(
            #"{"choices":[],"object":"chat.completion.chunk","usage":{"completion_tokens":\#(generated),"#
                + #""prompt_tokens":\#(promptTokens),"total_tokens":\#(promptTokens + generated)\#(details)}\#(timings)}"#
        )
        events.append("[DONE]")
        return events
    }
}
