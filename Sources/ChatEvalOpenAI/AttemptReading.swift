import ChatEvalCore
import ChatEvalRuntime
import Foundation

/// What one attempt has read of its exchange: the response head's status and fields, an error
/// body, or the event stream — its answer so far (stop strings applied, text passed on in
/// coalesced chunks) and where it ended. Fed event by event by `OpenAIChatRuntime`, which owns the
/// exchange and its time bounds; this decides what each event means.
struct AttemptReading {
    var status = 0
    var statusReason = ""
    var backend: String?
    var errorBody: [UInt8] = []
    var retryAfter: Double?
    var parser = ServerSentEventParser()
    var turn = StreamedTurn()
    var stops: StopStringMatcher
    var stoppedAtString = false
    var coalescer: ChunkCoalescer
    /// When the answer ended (its last event, or the answer bound), on the attempt's clock.
    var completedAt: Double?
    /// Body bytes of a 200 response.
    var received = 0
    /// The body's first bytes, to quote when it is not an event stream.
    var opening: [UInt8] = []
    /// The server went on past `max_tokens` and reading stopped at the answer bound.
    var cut = false
    let bound: (pieces: Int, bytes: Int)
    /// The stream's share of the memory its run's streams share, when it bounds the answer's text
    /// more tightly than `max_tokens` does: nil when it does not.
    let share: StreamMemory?

    /// Most of an error body kept: enough to name the error.
    static let errorBodyLimit = 64 << 10

    init(options: GenerationOptions, memory: StreamMemory = StreamMemory(), emit: @escaping @Sendable (String) -> Void) {
        stops = StopStringMatcher(options.stop)
        coalescer = ChunkCoalescer(send: emit)
        parser = ServerSentEventParser(eventBound: memory.eventBytes)
        let answer = OpenAIChatRuntime.answerBound(maxTokens: options.maxTokens)
        bound = (answer.pieces, min(answer.bytes, memory.answerBytes))
        share = memory.answerBytes < answer.bytes ? memory : nil
    }

    /// Reads the response head. A non-200 status keeps its reason and Retry-After for the failure
    /// the body will name; a 200 that is not an event stream is a failure, returned.
    mutating func readHead(status code: Int, reason: String, fields: HTTPHeaders, backendHeader: String?) -> RuntimeFailure? {
        status = code
        backend = backendHeader.flatMap { fields.first($0) }
        guard code == 200 else {
            retryAfter = fields.first("Retry-After").flatMap { RetryPolicy.retryAfterSeconds($0) }
            statusReason = reason
            return nil
        }
        let contentType = fields.first("Content-Type") ?? ""
        guard contentType.lowercased().hasPrefix("text/event-stream") else {
            return RuntimeFailure(
                .malformedStream,
                "the server answered "
                    + "\(contentType.isEmpty ? "no content type" : ServerFailures.excerpt(contentType, limit: 80)), "
                    + "not an event stream (text/event-stream)")
        }
        return nil
    }

    /// Reads a chunk of body that arrived at `arrival`: an error body's bytes are kept (up to
    /// `errorBodyLimit`), a stream's events are parsed, their text passed on up to a stop string,
    /// and progress told to `bounds`. True when reading should stop: the error body is full, or
    /// the answer reached its bound (the server goes on past `max_tokens`) or a stop string the
    /// server did not stop at. Throws the stream's
    /// own failures (`RuntimeFailure`, `ServerSentEventParser.TooLarge`).
    mutating func readBody(_ data: Data, at arrival: Double, bounds: AttemptBounds) throws -> Bool {
        guard status == 200 else {
            errorBody += data.prefix(max(0, Self.errorBodyLimit - errorBody.count))
            return errorBody.count >= Self.errorBodyLimit
        }
        received += data.count
        let openingBytes = OpenAIChatRuntime.openingBytes
        if opening.count < openingBytes { opening += data.prefix(openingBytes - opening.count) }
        let comments = parser.comments
        for event in try parser.feed(data) {
            let progress = try turn.consume(event, at: arrival)
            if progress.carriedSomething { bounds.progress(at: arrival) }
            guard case .text(let piece) = progress, !stoppedAtString else { continue }
            switch stops.append(piece) {
            case .text(let text): coalescer.add(text)
            case .stopped(let before):
                coalescer.add(before)
                stoppedAtString = true
                // A server that matches stop strings token by token (mlx_lm.server) goes on past
                // one its text holds: the answer ends here, and so does reading (closing the
                // stream ends its generation). Its closing `usage` is not waited for.
                if !turn.isFinished {
                    completedAt = arrival
                    return true
                }
            }
            if turn.deltaTimes.count >= bound.pieces || turn.text.utf8.count >= bound.bytes {
                // The stream's share of memory, not max_tokens, ended the answer: a failure that says so, never a cut answer.
                if let share, turn.deltaTimes.count < bound.pieces { throw share.answerPastShare(turn.text.utf8.count) }
                // The server goes on past max_tokens: stop reading, keep what came.
                cut = true
                completedAt = arrival
                return true
            }
        }
        if parser.comments > comments { bounds.progress(at: arrival) }
        if turn.done, completedAt == nil { completedAt = arrival }
        return false
    }

    /// The failure of an exchange libcurl ended with `error`, and whether the answer had begun
    /// (a response head had arrived): the time bounds', the body bound's, no connection, a broken
    /// stream or one that was never an event stream.
    func failure(
        of error: HTTPTransportError, bounds: AttemptBounds, url: String, bodyBound: Int?, maxTokens: Int, connectTimeout: Double
    ) -> (failure: RuntimeFailure, begun: Bool) {
        let begun = status != 0
        switch error.kind {
        case .stopped:
            if let bound = bounds.failure(headReceived: begun, pieces: turn.deltaTimes.count) { return (bound, true) }
            return (RuntimeFailure(.cancelled, "the turn was cancelled after \(turn.deltaTimes.count) pieces of the answer"), begun)
        case .bodyTooLarge:
            return (
                OpenAIChatRuntime.overBodyBound(bodyBound ?? 0, maxTokens: maxTokens, turn: turn, comments: parser.comments), true
            )
        case .unreachable:
            return (RuntimeFailure(.unavailable, "cannot reach \(url): \(error.message)"), false)
        case .connectTimeout:
            return (
                RuntimeFailure(.unavailable, "cannot reach \(url): no connection within \(ServerFailures.format(connectTimeout)) s"),
                false
            )
        case .headersTooLarge:
            return (RuntimeFailure(.malformedStream, "\(error.message): not the head of a chat completion"), true)
        case .broken where received > 0 && !parser.sawEventStream:
            return (notAnEventStream(), true)
        case .broken:
            return begun
                ? (RuntimeFailure(.streamInterrupted, "the answer broke off after \(turn.deltaTimes.count) pieces: \(error.message)"), true)
                : (RuntimeFailure(.unavailable, "\(url) closed the connection before answering: \(error.message)"), false)
        case .setup:
            return (RuntimeFailure(.invalidResponse, error.message), false)
        case .libraryUnavailable:
            return (RuntimeFailure(.unavailable, error.message), false)
        }
    }

    /// The failure of an exchange that ended without one but answered nothing usable — no
    /// response, an error status (with its Retry-After), a body that was never an event stream —
    /// and whether the answer had begun; nil for an answer.
    func unanswered(url: String) -> (failure: RuntimeFailure, retryAfter: Double?, begun: Bool)? {
        if status == 0 {
            return (RuntimeFailure(.unavailable, "\(url) closed the connection before answering"), nil, false)
        }
        if status != 200 {
            return (
                ServerFailures.http(
                    status: status, reason: statusReason.isEmpty ? HTTPStatus.reason(status) : statusReason,
                    body: errorBody, retryAfter: retryAfter),
                retryAfter, false
            )
        }
        if !turn.isFinished, !cut, received > 0, !parser.sawEventStream {
            return (notAnEventStream(), nil, true)
        }
        return nil
    }

    /// Passes on the text still held (a possible stop string's start, unless one was found).
    mutating func flush() {
        if !stoppedAtString { coalescer.add(stops.flush()) }
        coalescer.flush()
    }

    /// A body labelled text/event-stream that is not one, quoted from its start.
    private func notAnEventStream() -> RuntimeFailure {
        let start = ServerFailures.excerpt(String(decoding: opening, as: UTF8.self), limit: 80)
        return RuntimeFailure(
            .malformedStream, "the body is not server-sent events though labelled text/event-stream: it begins \"\(start)\"")
    }
}
