import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A scripted OpenAI-compatible server on 127.0.0.1 (a port the system picks), for tests of HTTP
/// runtimes: it records every request and answers chat requests from a script, one reply per
/// request, in order. An actor: requests are recorded in order, safely, from any connection.
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
    }

    /// Longest the server holds a connection without sending (`.stall`).
    public static let maximumStall: Duration = .seconds(30)

    public let port: Int
    public private(set) var requests: [Request] = []
    /// Most chat requests being answered at the same time.
    public private(set) var maximumInFlight = 0
    private var inFlight = 0
    private var replies: [Reply]
    private let fallback: Reply
    private let routes: [String: Reply]

    /// The chat requests received (POST …/chat/completions), in order.
    public var chatRequests: [Request] { requests.filter { $0.path.hasSuffix("/chat/completions") } }

    private init(port: Int, replies: [Reply], fallback: Reply, routes: [String: Reply]) {
        self.port = port
        self.replies = replies
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
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
                }
            }
        guard let port = channel.channel.localAddress?.port else {
            try? await channel.channel.close()
            throw FakeServerError(message: "the fake server has no port")
        }
        let server = FakeChatServer(port: port, replies: replies, fallback: fallback, routes: routes)
        let serving = Task {
            try? await withThrowingDiscardingTaskGroup { group in
                try await channel.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { await server.serve(connection) }
                    }
                }
            }
        }
        defer { serving.cancel() }
        do {
            let result = try await body(server)
            try? await channel.channel.close()
            serving.cancel()
            return result
        } catch {
            try? await channel.channel.close()
            throw error
        }
    }

    private func record(_ request: Request) -> Reply {
        requests.append(request)
        guard request.path.hasSuffix("/chat/completions") else { return routes[request.path] ?? .status(404, body: "not found") }
        inFlight += 1
        maximumInFlight = max(maximumInFlight, inFlight)
        return replies.isEmpty ? fallback : replies.removeFirst()
    }

    private func answered(_ request: Request) {
        if request.path.hasSuffix("/chat/completions") { inFlight -= 1 }
    }

    /// Reads requests from one connection and answers each, until it closes.
    private nonisolated func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let received):
                    head = received
                    body.clear()
                case .body(var buffer):
                    body.writeBuffer(&buffer)
                case .end:
                    guard let received = head else { continue }
                    var headers: [String: String] = [:]
                    for (name, value) in received.headers { headers[name.lowercased()] = value }
                    let request = Request(method: "\(received.method)", path: received.uri, headers: headers,
                                          body: String(buffer: body))
                    let reply = await record(request)
                    let keepOpen: Bool
                    do {
                        keepOpen = try await Self.answer(reply, outbound)
                    } catch {
                        await answered(request)
                        throw error
                    }
                    await answered(request)
                    guard keepOpen else { return }
                }
            }
        }
    }

    /// Writes one reply; false when the connection must close afterwards.
    private static func answer(_ reply: Reply, _ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        func head(_ status: Int, _ headers: [String: String], eventStream: Bool) -> HTTPServerResponsePart {
            var fields = HTTPHeaders()
            fields.add(name: "Content-Type", value: eventStream ? "text/event-stream" : "application/json")
            if eventStream { fields.add(name: "Transfer-Encoding", value: "chunked") }
            for (name, value) in headers { fields.add(name: name, value: value) }
            return .head(HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields))
        }
        func event(_ text: String) -> HTTPServerResponsePart { .body(.byteBuffer(ByteBuffer(string: "data: \(text)\n\n"))) }

        switch reply {
        case .events(let events, let gap, let headers):
            try await outbound.write(head(200, headers, eventStream: true))
            for text in events {
                if gap > .zero { try await Task.sleep(for: gap) }
                try await outbound.write(event(text))
            }
            try await outbound.write(.end(nil))
            return true
        case .cut(let events):
            try await outbound.write(head(200, [:], eventStream: true))
            for text in events { try await outbound.write(event(text)) }
            return false
        case .stall:
            try await outbound.write(head(200, [:], eventStream: true))
            try? await Task.sleep(for: maximumStall)
            return false
        case .status(let status, let text, let headers):
            var fields = HTTPHeaders()
            fields.add(name: "Content-Type", value: "application/json")
            fields.add(name: "Content-Length", value: String(text.utf8.count))
            for (name, value) in headers { fields.add(name: name, value: value) }
            try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields)))
            try await outbound.write(.body(.byteBuffer(ByteBuffer(string: text))))
            try await outbound.write(.end(nil))
            return true
        case .close:
            return false
        }
    }
}

public struct FakeServerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension FakeChatServer {
    /// The chunks a llama-server streams for `pieces` of answer text: a role chunk, one chunk per
    /// piece, the finish chunk, the usage chunk with `timings`, and `[DONE]`.
    public static func llamaServerEvents(
        _ pieces: [String], finish: String = "stop", promptTokens: Int = 20, cached: Int? = 0, completionTokens: Int? = nil,
        includeTimings: Bool = true
    ) -> [String] {
        let generated = completionTokens ?? pieces.count
        var events = [#"{"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"object":"chat.completion.chunk"}"#]
        for piece in pieces {
            let escaped = String(data: (try? JSONSerialization.data(withJSONObject: [piece], options: [.fragmentsAllowed])) ?? Data("[\"\"]".utf8), encoding: .utf8) ?? "[\"\"]"
            events.append(#"{"choices":[{"finish_reason":null,"index":0,"delta":{"content":"# + String(escaped.dropFirst().dropLast()) + #"}}],"object":"chat.completion.chunk"}"#)
        }
        events.append(#"{"choices":[{"finish_reason":"\#(finish)","index":0,"delta":{}}],"object":"chat.completion.chunk"}"#)
        let details = cached.map { #","prompt_tokens_details":{"cached_tokens":\#($0)}"# } ?? ""
        let timings = includeTimings
            ? #","timings":{"cache_n":\#(cached ?? 0),"prompt_n":\#(promptTokens - (cached ?? 0)),"prompt_ms":12.5,"prompt_per_second":800.0,"predicted_n":\#(generated),"predicted_ms":40.0,"predicted_per_second":100.0}"#
            : ""
        events.append(#"{"choices":[],"object":"chat.completion.chunk","usage":{"completion_tokens":\#(generated),"prompt_tokens":\#(promptTokens),"total_tokens":\#(promptTokens + generated)\#(details)}\#(timings)}"#)
        events.append("[DONE]")
        return events
    }
}
