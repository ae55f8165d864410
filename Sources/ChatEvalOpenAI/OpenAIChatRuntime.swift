import AsyncHTTPClient
import ChatEvalCore
import ChatEvalRuntime
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// A chat served over HTTP by an OpenAI-compatible server, replayed the way a chat app talks to
/// one: each turn POSTs the whole history to `/chat/completions` with `stream: true` and reads
/// the answer as server-sent events.
///
/// Measured per turn (seconds from sending the request): TTFT at the first piece of answer text,
/// the gaps between pieces, the total time; token counts from the closing `usage`; and the
/// server's own figures where it gives them (llama-server's `timings`: `cache_n`, `prompt_n`,
/// `prompt_ms`, `predicted_ms`...; `usage.prompt_tokens_details.cached_tokens`). Reuse comes only
/// from those: a server that reports neither leaves it unknown (nil), never 0.
///
/// Sessions: the server keeps its own cache; `resetSession()` (and a new conversation) makes the
/// next turn ask llama-server not to reuse it (`cache_prompt: false`), which is how
/// `--cache-mode cold` reaches the server. Other servers have no such switch: their reuse is
/// whatever they report.
///
/// Failures are typed (`RuntimeFailure`): context overflow in llama-server's, OpenAI's and vLLM's
/// shapes, `rate_limited` (429), `unavailable` (502/503/504, no connection), `timeout` (the
/// configured request timeout, from request to last byte), `malformed_stream`,
/// `stream_interrupted`, `refused` (the API's `refusal`, `content_filter`), `unauthorized`,
/// `http_error`. Transient ones are retried per `RetryPolicy` when no answer had begun; each retry
/// is recorded on the turn (`TurnMetrics.retries`, or `RuntimeFailure.retries` when it failed in
/// the end). Cancelling the consumer ends the turn with `cancelled`.
public final class OpenAIChatRuntime: ChatRuntime, Sendable {
    public let connection: OpenAIConnection
    public let identity: RuntimeIdentity
    public var runsInProcess: Bool { false }

    private struct Session {
        /// The next turn must not reuse the server's cache.
        var fresh = true
        /// Sent with every turn of the conversation when affinity is on.
        var affinityKey: String
    }
    private let session: Mutex<Session>

    init(connection: OpenAIConnection) {
        self.connection = connection
        identity = connection.identity
        session = Mutex(Session(affinityKey: Self.newAffinityKey(conversation: nil)))
    }

    public func resetSession() async {
        session.withLock { $0.fresh = true }
    }

    public func beginConversation(id: String) async {
        session.withLock { $0 = Session(fresh: true, affinityKey: Self.newAffinityKey(conversation: id)) }
    }

    /// The affinity key of the conversation in progress (what the header and `user` field carry).
    public var affinityKey: String { session.withLock { $0.affinityKey } }

    /// `chateval-<conversation>-<random>`: the conversation's name for a log, made unique per replay.
    static func newAffinityKey(conversation: String?) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let suffix = String((0..<10).map { _ in alphabet.randomElement() ?? "x" })
        let name = conversation.map { String($0.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }.prefix(40)) }
        return ["chateval", name, suffix].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: "-")
    }

    public func respond(to messages: [ChatMessage], options: GenerationOptions) -> AsyncThrowingStream<ChatEvent, any Error> {
        let state = session.withLock { state -> Session in
            defer { state.fresh = false }
            return state
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let metrics = try await self.answer(messages, options: options, session: state) { continuation.yield(.chunk($0)) }
                    continuation.yield(.info(metrics))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { termination in
                if case .cancelled = termination { task.cancel() }
            }
        }
    }

    // MARK: The turn

    /// A failed attempt, and what decides whether it is retried.
    private struct AttemptFailure: Error {
        var failure: RuntimeFailure
        var retryAfter: Double?
        /// Some of the answer had arrived: never retried (the turn would be measured twice).
        var answerBegun: Bool
        var elapsed: Double
    }

    private func answer(
        _ messages: [ChatMessage], options: GenerationOptions, session: Session, emit: @escaping @Sendable (String) -> Void
    ) async throws(RuntimeFailure) -> TurnMetrics {
        let configuration = connection.configuration
        let body = try ChatRequestBody.encode(ChatRequestBody.Turn(
            model: configuration.modelName, messages: messages, options: options,
            disableCache: session.fresh, llamaServerFields: connection.sendsCacheControl,
            user: configuration.affinity.userField ? session.affinityKey : nil, extraFields: configuration.extraFields))
        var request = HTTPClientRequest(url: connection.endpoint.chatCompletions)
        request.method = .POST
        request.headers = connection.headers()
        if let header = configuration.affinity.header { request.headers.replaceOrAdd(name: header, value: session.affinityKey) }
        request.body = .bytes(ByteBuffer(bytes: body))

        var retries: [RetryAttempt] = []
        var attempt = 1
        while true {
            switch await attemptTurn(request, options: options, emit: emit) {
            case .success(var metrics):
                metrics.retries = retries.isEmpty ? nil : retries
                return metrics
            case .failure(let failed):
                var failure = failed.failure
                if Task.isCancelled, failure.code != .cancelled {
                    failure = RuntimeFailure(.cancelled, "the turn was cancelled (\(failure.message))")
                }
                let delay = failed.answerBegun || failure.code == .cancelled ? nil
                    : configuration.retry.delay(beforeRetry: attempt, after: failure.code, retryAfter: failed.retryAfter) { Double.random(in: 0..<1) }
                guard let delay else {
                    failure.retries = retries.isEmpty ? nil : retries
                    throw failure
                }
                retries.append(RetryAttempt(attempt: attempt, code: failure.code, message: failure.message, elapsed: failed.elapsed,
                                            delay: delay, retryAfter: failed.retryAfter))
                do {
                    try await Task.sleep(for: .seconds(delay))
                } catch {
                    throw RuntimeFailure(.cancelled, "the turn was cancelled while waiting to retry after \(failure.code)", retries: retries)
                }
                attempt += 1
            }
        }
    }

    /// One attempt, bounded by the request timeout (from sending to the last byte).
    private func attemptTurn(
        _ request: HTTPClientRequest, options: GenerationOptions, emit: @escaping @Sendable (String) -> Void
    ) async -> Result<TurnMetrics, AttemptFailure> {
        let timeout = connection.configuration.requestTimeout
        let clock = Stopwatch()
        return await withTaskGroup(of: Result<TurnMetrics, AttemptFailure>?.self) { group in
            group.addTask { await self.stream(request, options: options, clock: clock, emit: emit) }
            group.addTask {
                do {
                    try await Task.sleep(for: .seconds(timeout))
                } catch {
                    return nil                           // the answer came first, or the turn was cancelled
                }
                return .failure(AttemptFailure(
                    failure: RuntimeFailure(.timeout, "no complete answer within the request timeout of \(ServerFailures.format(timeout)) s"),
                    retryAfter: nil, answerBegun: true, elapsed: clock.elapsed))
            }
            var outcome: Result<TurnMetrics, AttemptFailure>?
            while outcome == nil, let next = await group.next() {
                outcome = next
                group.cancelAll()
            }
            return outcome ?? .failure(AttemptFailure(
                failure: RuntimeFailure(.cancelled, "the turn was cancelled"), retryAfter: nil, answerBegun: false, elapsed: clock.elapsed))
        }
    }

    private func stream(
        _ request: HTTPClientRequest, options: GenerationOptions, clock: Stopwatch, emit: @escaping @Sendable (String) -> Void
    ) async -> Result<TurnMetrics, AttemptFailure> {
        let url = connection.endpoint.recorded + "/chat/completions"
        func failed(_ failure: RuntimeFailure, retryAfter: Double? = nil, begun: Bool) -> Result<TurnMetrics, AttemptFailure> {
            .failure(AttemptFailure(failure: failure, retryAfter: retryAfter, answerBegun: begun, elapsed: clock.elapsed))
        }
        let response: HTTPClientResponse
        do {
            response = try await connection.client.execute(request, deadline: .distantFuture)
        } catch {
            return failed(TransportFailure.beforeResponse(error, url: url), begun: false)
        }
        let backend = connection.configuration.backendHeader.flatMap { response.headers.first(name: $0) }
        guard response.status == .ok else {
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { RetryPolicy.retryAfterSeconds($0) }
            var body: [UInt8] = []
            do {
                for try await buffer in response.body {
                    body += buffer.readableBytesView
                    if body.count >= 64 << 10 { break }
                }
            } catch {
                // What arrived of the error body is enough to name the error.
            }
            return failed(ServerFailures.http(status: Int(response.status.code), reason: response.status.reasonPhrase, body: body, retryAfter: retryAfter),
                          retryAfter: retryAfter, begun: false)
        }
        let contentType = response.headers.first(name: "Content-Type") ?? ""
        guard contentType.lowercased().hasPrefix("text/event-stream") else {
            return failed(RuntimeFailure(.malformedStream, "the server answered \(contentType.isEmpty ? "no content type" : contentType), not an event stream (text/event-stream)"), begun: true)
        }

        var parser = ServerSentEventParser()
        var turn = StreamedTurn()
        var stops = StopStringMatcher(options.stop)
        var stoppedAtString = false
        var coalescer = ChunkCoalescer(send: emit)
        var completedAt: Double?
        do {
            for try await buffer in response.body {
                let arrival = clock.elapsed
                for event in try parser.feed(buffer.readableBytesView) {
                    guard case .text(let piece) = try turn.consume(event, at: arrival), !stoppedAtString else { continue }
                    switch stops.append(piece) {
                    case .text(let text): coalescer.add(text)
                    case .stopped(let before):
                        coalescer.add(before)
                        stoppedAtString = true
                    }
                }
                if turn.done, completedAt == nil { completedAt = arrival }
            }
        } catch let failure as RuntimeFailure {
            return failed(failure, begun: true)
        } catch is ServerSentEventParser.LineTooLong {
            return failed(RuntimeFailure(.malformedStream, "a line of the event stream is over \(ServerSentEventParser.maximumLineBytes) bytes: not server-sent events"), begun: true)
        } catch {
            return failed(TransportFailure.duringStream(error, received: turn.deltaTimes.count), begun: true)
        }
        if !stoppedAtString { coalescer.add(stops.flush()) }
        coalescer.flush()
        do {
            return .success(try turn.metrics(totalTime: completedAt ?? clock.elapsed, options: options, stoppedAtString: stoppedAtString, backend: backend))
        } catch {
            return failed(error, begun: true)
        }
    }
}
