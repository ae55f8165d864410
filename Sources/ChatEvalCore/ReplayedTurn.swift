/// One turn of a replayed conversation, as the replayer saw it: what was sent, what came back
/// and what was measured. Grading verdicts are not part of it (the runner adds them to the
/// record the Store writes).
public struct ReplayedTurn: Codable, Sendable, Hashable {
    public enum Status: String, Codable, Sendable {
        case answered
        /// The runtime could not answer (see `failure`).
        case failed
        /// Not run, because an earlier turn failed or the run was interrupted (see `skipReason`).
        case skipped
    }

    /// 0-based position in the conversation.
    public var index: Int
    /// Turn indices lie in 0 ..< this: no conversation comes near it, and records read from files,
    /// notes and journals are refused beyond it, so code that sizes an array by a turn index may.
    public static let indexLimit = 100_000
    /// The user message as sent, placeholders filled in.
    public var user: String
    /// Messages sent for this turn, system prompt included.
    public var messagesSent: Int
    public var status: Status
    public var answer: String?
    public var metrics: TurnMetrics?
    public var failure: RuntimeFailure?
    public var skipReason: String?
    /// The exact prompt sent (the chat template's rendering), when the run was asked to keep it
    /// (`run --print-prompt`).
    public var prompt: String?

    public init(
        index: Int, user: String, messagesSent: Int, status: Status, answer: String? = nil,
        metrics: TurnMetrics? = nil, failure: RuntimeFailure? = nil, skipReason: String? = nil
    ) {
        self.index = index
        self.user = user
        self.messagesSent = messagesSent
        self.status = status
        self.answer = answer
        self.metrics = metrics
        self.failure = failure
        self.skipReason = skipReason
    }
}
