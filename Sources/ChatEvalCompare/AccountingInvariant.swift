import ChatEvalCore
import ChatEvalStore

/// The accounting invariant of a conversation replayed with its session cache: turn n's prompt
/// extends turn n−1's prompt and answer, token for token — what a chat app's reuse rests on.
/// Checked on every later turn whose cache could have held the previous turn (session mode, in
/// process, where the engine's own cache says what it held): a turn whose prompt leaves that sequence is a **break**, with
/// the token where it happened and why (the reuse accounting's `ReuseMiss`). A break the suite
/// declares — a history window (`max_messages`) that sends fewer messages than the previous turn
/// plus two — is named as declared; any other break is a finding.
public struct AccountingInvariant: Sendable {
    public struct Break: Sendable, Hashable {
        public var suite: String
        public var conversation: String
        public var repetition: Int
        /// 1-based.
        public var turn: Int
        public var miss: ReuseMiss
        /// True when the suite asked for it: a history window dropped earlier messages.
        public var declared: Bool
    }

    /// Later turns checked (answered, in session mode, on a cache that reports what it held).
    public var checked = 0
    public var breaks: [Break] = []

    public var undeclared: [Break] { breaks.filter { !$0.declared } }

    public init(_ records: [RunRecord]) {
        // In process only: a server's reply does not carry the tokens it was sent.
        for record in records where record.settings.cacheMode == .session && record.runtime.endpoint == nil {
            for suite in record.suites {
                for replay in suite.conversations where replay.isMeasured {
                    var previousSent: Int?
                    for turn in replay.turns {
                        defer { previousSent = turn.status == .answered ? turn.replayed.messagesSent : nil }
                        guard turn.index > 0, turn.status == .answered, let metrics = turn.metrics, let previous = previousSent
                        else { continue }
                        if let miss = metrics.reuseMiss {
                            guard miss.cause != .serverSide, miss.cause != .coldCache else { continue }
                            checked += 1
                            breaks.append(
                                Break(
                                    suite: suite.name, conversation: replay.id, repetition: replay.repetition, turn: turn.index + 1,
                                    miss: miss, declared: turn.replayed.messagesSent < previous + 2))
                        } else if metrics.reusableTokens != nil {
                            checked += 1
                        }
                    }
                }
            }
        }
    }
}
