import ChatEvalCore
import ChatEvalRuntime
import Synchronization

/// The time bounds that end an attempt before its answer does, as libcurl's progress callback
/// asks them (at least once a second): the request timeout, from sending to the last byte, and
/// the stall bound.
///
/// The stall bound: an attempt fails as stalled (`timeout`, "the stall bound") after
/// `stallTimeout` seconds without progress. Progress is the response's head, a keep-alive comment
/// (a `:` line, the event stream's way of saying "alive"), or an event that carries something: a
/// piece of the answer, a role, usage or timings, a finish reason, `[DONE]` — whatever a delta
/// holds, a reasoning model's thinking included. An event that carries nothing (an empty delta)
/// is not progress, nor are bytes as such: a server sending an empty delta every second still
/// stalls the turn, while comments every few seconds keep a slow turn alive.
///
/// Progress is judged by the consumer, as it reads: while bytes have waited for it over
/// `consumerLag` (a consumer starved on a loaded machine), the stall bound waits too — the server
/// is not the one stalling. The body's byte bound ends a server that sends faster than it is read.
final class AttemptBounds: Sendable {
    enum Bound { case request, stall }

    let requestTimeout: Double
    let stallTimeout: Double
    /// Seconds since the request was sent.
    let clock = Stopwatch()
    private let lastProgress = Mutex(0.0)
    /// Which bound ended the exchange, latched when libcurl's callback decides it: asked again
    /// later, a consumer that was starved for a second (a loaded runner) may have moved the last
    /// progress meanwhile, and a stall would read as a cancellation.
    private let reached = Mutex<Bound?>(nil)
    /// Body bytes the consumer has read.
    private let read = Atomic(0)
    /// The body's length when the callback last saw bytes unread, and when: the consumer is
    /// behind while it has not read that far.
    private let unread = Mutex<(bytes: Int, at: Double)?>(nil)
    /// Longest bytes may wait unread before the consumer counts as behind.
    static let consumerLag = 0.25

    init(requestTimeout: Double, stallTimeout: Double) {
        self.requestTimeout = requestTimeout
        self.stallTimeout = stallTimeout
    }

    /// Progress at `time` (the clock's): the stall bound starts again from there.
    func progress(at time: Double) { lastProgress.withLock { $0 = time } }

    /// The consumer has read `bytes` more of the body (and judged them).
    func read(_ bytes: Int) { read.add(bytes, ordering: .releasing) }

    /// True once a bound is reached, which it latches; `bodyBytes`: the body passed on so far.
    func shouldStop(bodyBytes: Int) -> Bool {
        let now = clock.elapsed
        let behind = unread.withLock { mark in
            let done = read.load(ordering: .acquiring)
            if done >= mark?.bytes ?? 0 { mark = done >= bodyBytes ? nil : (bodyBytes, now) }
            return mark.map { now - $0.at > Self.consumerLag } ?? false
        }
        let bound: Bound? =
            now > requestTimeout ? .request : !behind && now - lastProgress.withLock { $0 } > stallTimeout ? .stall : nil
        guard let bound else { return false }
        reached.withLock { $0 = $0 ?? bound }
        return true
    }

    /// The failure of the bound that stopped the exchange, or nil when none did (it was cancelled).
    /// `headReceived`: the response's head had come; `pieces`: of the answer.
    func failure(headReceived: Bool, pieces: Int) -> RuntimeFailure? {
        switch reached.withLock({ $0 }) {
        case .request:
            RuntimeFailure(
                .timeout,
                "no complete answer within the request timeout of \(ServerFailures.format(requestTimeout)) s"
                    + (headReceived ? " (\(pieces) pieces of it arrived)" : ""))
        case .stall:
            RuntimeFailure(
                .timeout,
                headReceived
                    ? "the stream stalled: no progress for \(ServerFailures.format(stallTimeout)) s — no event that carried anything, "
                        + "no keep-alive comment — after \(pieces) pieces of the answer (the stall bound)"
                    : "the server sent no complete response head within \(ServerFailures.format(stallTimeout)) s (the stall bound)")
        case nil: nil
        }
    }
}

extension OpenAIChatRuntime {
    /// The most bytes of response body read for a turn of `maxTokens` tokens: 8 KiB a token, at
    /// least 16 MiB. A chunk of one token is well under 1 KiB, even with llama-server's per-token
    /// timings; a body past this is a server filling memory (empty deltas or comments without end).
    public static func bodyBound(maxTokens: Int) -> Int {
        maxTokens > Int.max / bodyBytesPerToken ? Int.max : max(leastBodyBytes, max(0, maxTokens) * bodyBytesPerToken)
    }

    static let bodyBytesPerToken = 8 << 10
    static let leastBodyBytes = 16 << 20

    /// The failure of a body past `bound` bytes, with what it held.
    static func overBodyBound(_ bound: Int, maxTokens: Int, turn: StreamedTurn, comments: Int) -> RuntimeFailure {
        RuntimeFailure(
            .malformedStream,
            "the response body went past its bound of \(mebibytes(bound)) (\(bodyBytesPerToken >> 10) KiB a token of max_tokens "
                + "\(maxTokens), at least \(mebibytes(leastBodyBytes))) "
                + "with \(turn.deltaTimes.count) pieces of the answer, in \(turn.events) events (\(turn.emptyEvents) of them carrying "
                + "nothing) and \(comments) keep-alive comments: not a chat completion")
    }

    private static func mebibytes(_ bytes: Int) -> String {
        "\(ServerFailures.format((Double(bytes) / Double(1 << 20) * 100).rounded() / 100)) MiB"
    }
}
