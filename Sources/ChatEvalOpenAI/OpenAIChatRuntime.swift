import ChatEvalCore
import ChatEvalRuntime
import Foundation
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
/// Sessions: the server keeps its own cache; `resetSession()`, a new conversation and
/// `evaluateNextTurnCold()` (how `--cache-mode cold` reaches the server) make the next turn ask
/// llama-server not to reuse it (`cache_prompt: false`). Other servers have no such switch: their
/// reuse is whatever they report.
///
/// `mlx_lm.server` (`ServerInfo.isMLXLMServer`) is sent no `seed` at temperature 0 (a seed makes
/// it serve the request alone instead of batching it) and no stop strings (it matches them by
/// tokens and, when the tokens differ, deletes the string and generates on): ChatEval applies
/// them and ends the answer at one; its cache is counted with the last sampled token in it.
///
/// Failures are typed (`RuntimeFailure`): context overflow in llama-server's, OpenAI's and vLLM's
/// shapes, `rate_limited` (429), `unavailable` (502/503/504, no connection), `timeout` (the
/// configured request timeout, from request to last byte, or the stall bound: `stallTimeout`
/// seconds without progress, as `AttemptBounds` defines it), `malformed_stream` (not an event
/// stream, an oversized head, a body past `bodyBound(maxTokens:)`, an event past 16 MiB),
/// `stream_interrupted`, `refused` (the API's `refusal`, `content_filter`),
/// `unauthorized`, `http_error`, and Foundation Models' errors from a bridge
/// (`ServerFailures.foundationModels`). Transient ones are retried per `RetryPolicy` when no answer had
/// begun; each retry is recorded on the turn (`TurnMetrics.retries`, or `RuntimeFailure.retries`
/// when it failed in the end). Cancelling the consumer ends the turn with `cancelled` within about
/// a second, whatever the server is doing.
///
/// Bounded by what the suite asked: a server that goes on past `max_tokens` is read up to
/// `answerBound(maxTokens:)` pieces of text, then the stream is closed and the turn recorded as
/// answered with stop reason `max_tokens` (`ServerFigures.cutAtMaxTokens`).
public final class OpenAIChatRuntime: ChatRuntime, Sendable {
    public let connection: OpenAIConnection
    public let identity: RuntimeIdentity
    public var runsInProcess: Bool { false }
    /// What each of its streams may hold: its share of the memory the run's streams share.
    public let memory: StreamMemory

    private struct Session {
        /// The next turn must not reuse the server's cache.
        var fresh = true
        /// The next turn is sent without the cache by the cache mode (`fresh` too), and what the
        /// previous one left there still counts as reusable.
        var cold = false
        /// Sent with every turn of the conversation when affinity is on.
        var affinityKey: String
        /// Tokens the previous turn left in the server's cache (its prompt and its answer but the
        /// last sampled token, as the server counted them); nil when unknown (a first turn, a
        /// failed one, no usage figures).
        var previousTokens: Int?
    }
    private let session: Mutex<Session>

    init(connection: OpenAIConnection, memory: StreamMemory = StreamMemory()) {
        self.connection = connection
        self.memory = memory
        identity = connection.identity
        session = Mutex(Session(affinityKey: Self.newAffinityKey(conversation: nil)))
    }

    public func resetSession() async {
        session.withLock {
            $0.fresh = true
            $0.previousTokens = nil
        }
    }

    public func evaluateNextTurnCold() async {
        session.withLock {
            $0.fresh = true
            $0.cold = true
        }
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
        let name = conversation.map {
            String(
                $0.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
                    .prefix(40))
        }
        return ["chateval", name, suffix].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: "-")
    }

    public func respond(to messages: [ChatMessage], options: GenerationOptions) -> AsyncThrowingStream<ChatEvent, any Error> {
        let state = session.withLock { state -> Session in
            defer {
                state.fresh = false
                state.cold = false
            }
            return state
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var metrics = try await self.answer(messages, options: options, session: state) { continuation.yield(.chunk($0)) }
                    self.accountReuse(&metrics, previousTokens: state.previousTokens, cold: state.cold)
                    continuation.yield(.info(metrics))
                    continuation.finish()
                } catch {
                    self.session.withLock { $0.previousTokens = nil }
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { termination in
                if case .cancelled = termination { task.cancel() }
            }
        }
    }

    /// What was reusable, from what the previous request left in the server's cache (the server's
    /// own counts), and a miss's cause — unknown to the client: "server-side", unless the turn was
    /// sent cold by the cache mode to a server that can be told so (`cache_prompt: false`).
    /// Records this turn's tokens for the next (`cachedTokens(prompt:generated:)`).
    private func accountReuse(_ metrics: inout TurnMetrics, previousTokens: Int?, cold: Bool) {
        let served = metrics.server?.generatedTokens ?? metrics.generatedTokens
        let left =
            metrics.reusedTokens == nil
            ? nil
            : Self.cachedTokens(prompt: metrics.promptTokens, generated: served, lastTokenCached: connection.server.isMLXLMServer)
        session.withLock { $0.previousTokens = left }
        metrics.kvCellsInUse = left
        guard let previousTokens, let reused = metrics.reusedTokens else { return }
        let reusable = min(previousTokens, max(metrics.promptTokens - 1, 0))
        metrics.reusableTokens = reusable
        if reused < reusable {
            metrics.reuseMiss = ReuseMiss(
                cause: cold && connection.sendsCacheControl ? .coldCache : .serverSide, position: reused, before: "", cached: "", sent: "")
        }
    }

    /// Tokens a finished request leaves in the server's cache: its prompt and every generated
    /// token but the last. A token enters the cache when it is decoded to sample the next one;
    /// the last sampled token ended the answer (an end-of-generation token, `max_tokens`, a stop
    /// string alike) and is never decoded, though llama-server counts it in `predicted_n`.
    /// `mlx_lm.server` keys its prompt cache by the whole sequence, the last token included, and
    /// reports reuse so (`lastTokenCached`): a 33-token prompt answered in 8 tokens gave the next
    /// turn 41 cached tokens.
    static func cachedTokens(prompt: Int, generated: Int, lastTokenCached: Bool = false) -> Int {
        prompt + (lastTokenCached ? generated : max(generated - 1, 0))
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

    /// The most pieces of answer text read for a turn of `maxTokens` tokens: a piece carries at
    /// least one token, and servers count differently (some add an end token), so the slack is
    /// 10% and at least 8 pieces.
    public static func answerBound(maxTokens: Int) -> (pieces: Int, bytes: Int) {
        let pieces = maxTokens + max(8, maxTokens / 10)
        return (pieces, pieces * 256)
    }

    /// The bytes of a stream's start kept to quote when it is not server-sent events: its first
    /// 80 characters (up to 320 bytes) and room for a secret straddling them to be redacted whole.
    static let openingBytes = 1_024

    private func answer(
        _ messages: [ChatMessage], options: GenerationOptions, session: Session, emit: @escaping @Sendable (String) -> Void
    ) async throws(RuntimeFailure) -> TurnMetrics {
        let configuration = connection.configuration
        let body = try ChatRequestBody.encode(
            ChatRequestBody.Turn(
                model: configuration.modelName, messages: messages, options: options,
                disableCache: session.fresh, llamaServerFields: connection.sendsCacheControl,
                seedWhenGreedy: !connection.server.isMLXLMServer, sendsStop: !connection.server.isMLXLMServer,
                user: configuration.affinity.userField ? session.affinityKey : nil, extraFields: configuration.extraFields))
        var headers = connection.headers()
        if let header = configuration.affinity.header { headers.append((header, session.affinityKey)) }
        let request = HTTPRequest(
            url: connection.endpoint.chatCompletions, body: body, headers: headers,
            connectTimeout: configuration.connectTimeout, maximumBodyBytes: Self.bodyBound(maxTokens: options.maxTokens),
            maximumUnreadBytes: memory.unreadBytes)

        var retries: [RetryAttempt] = []
        var attempt = 1
        while true {
            switch await stream(request, options: options, emit: emit) {
            case .success(var metrics):
                metrics.retries = retries.isEmpty ? nil : retries
                return metrics
            case .failure(let failed):
                var failure = failed.failure
                if Task.isCancelled, failure.code != .cancelled {
                    failure = RuntimeFailure(.cancelled, "the turn was cancelled (\(failure.message))")
                }
                let delay =
                    failed.answerBegun || failure.code == .cancelled
                    ? nil
                    : configuration.retry.delay(beforeRetry: attempt, after: failure.code, retryAfter: failed.retryAfter) {
                        Double.random(in: 0..<1)
                    }
                guard let delay else {
                    if let asked = failed.retryAfter, asked > configuration.retry.maximumRetryAfter, RetryPolicy.isTransient(failure.code) {
                        failure.message +=
                            "; the server asked to retry after \(ServerFailures.format(asked)) s, longer than the "
                            + "\(ServerFailures.format(configuration.retry.maximumRetryAfter)) s a turn waits: not retried"
                    }
                    failure.retries = retries.isEmpty ? nil : retries
                    throw failure
                }
                retries.append(
                    RetryAttempt(
                        attempt: attempt, code: failure.code, message: failure.message, elapsed: failed.elapsed,
                        delay: delay, retryAfter: failed.retryAfter))
                do {
                    try await Task.sleep(for: .seconds(delay))
                } catch {
                    throw RuntimeFailure(
                        .cancelled, "the turn was cancelled while waiting to retry after \(failure.code)", retries: retries)
                }
                attempt += 1
            }
        }
    }

    /// One attempt: the request streamed until its answer ends, bounded by the request timeout and
    /// the stall bound (`AttemptBounds`, checked by libcurl's progress callback at least once a
    /// second), the body bound (`HTTPRequest.maximumBodyBytes`) and the answer bound. What each
    /// event means is `AttemptReading`'s to say.
    private func stream(_ request: HTTPRequest, options: GenerationOptions, emit: @escaping @Sendable (String) -> Void) async -> Result<
        TurnMetrics, AttemptFailure
    > {
        let configuration = connection.configuration
        let url = connection.endpoint.recorded + "/chat/completions"
        let bounds = AttemptBounds(requestTimeout: configuration.requestTimeout, stallTimeout: configuration.stallTimeout)
        let clock = bounds.clock
        func failed(_ failure: RuntimeFailure, retryAfter: Double? = nil, begun: Bool) -> Result<TurnMetrics, AttemptFailure> {
            .failure(AttemptFailure(failure: failure, retryAfter: retryAfter, answerBegun: begun, elapsed: clock.elapsed))
        }

        var reading = AttemptReading(options: options, memory: memory, emit: emit)
        do {
            exchange: for try await event in HTTPClient.stream(request, pool: connection.pool, shouldStop: bounds.shouldStop(bodyBytes:)) {
                let arrival = clock.elapsed
                switch event {
                case .head(let code, let reason, let fields):
                    bounds.progress(at: arrival)
                    if let failure = reading.readHead(
                        status: code, reason: reason, fields: fields, backendHeader: configuration.backendHeader)
                    {
                        return failed(failure, begun: true)
                    }
                case .body(let data):
                    defer { bounds.read(data.count) }
                    if try reading.readBody(data, at: arrival, bounds: bounds) { break exchange }
                }
            }
        } catch let failure as RuntimeFailure {
            return failed(failure, begun: true)
        } catch let tooLarge as ServerSentEventParser.TooLarge {
            let share =
                memory.streams > 1
                ? " (the bound of one stream of \(memory.share): a lower --concurrency gives each stream more)" : ""
            return failed(RuntimeFailure(.malformedStream, "\(tooLarge)\(share)"), begun: true)
        } catch let error as HTTPTransportError {
            let ended = reading.failure(
                of: error, bounds: bounds, url: url, bodyBound: request.maximumBodyBytes, maxTokens: options.maxTokens,
                connectTimeout: configuration.connectTimeout)
            return failed(ended.failure, begun: ended.begun)
        } catch {
            return failed(RuntimeFailure(.streamInterrupted, "the answer broke off: \(error)"), begun: true)
        }
        if let unanswered = reading.unanswered(url: url) {
            return failed(unanswered.failure, retryAfter: unanswered.retryAfter, begun: unanswered.begun)
        }
        reading.flush()
        do {
            return .success(
                try reading.turn.metrics(
                    totalTime: reading.completedAt ?? clock.elapsed, options: options, stoppedAtString: reading.stoppedAtString,
                    backend: reading.backend, cut: reading.cut))
        } catch {
            return failed(error, begun: true)
        }
    }
}
