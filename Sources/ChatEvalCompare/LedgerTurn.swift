import ChatEvalCore
import ChatEvalStore

/// A turn by its place: suite, conversation and 1-based turn.
public struct LedgerTurn: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var suite: String
    public var conversation: String
    /// 1-based.
    public var turn: Int

    public init(suite: String, conversation: String, turn: Int) {
        self.suite = suite
        self.conversation = conversation
        self.turn = turn
    }

    public static func < (a: LedgerTurn, b: LedgerTurn) -> Bool {
        (a.suite, a.conversation, a.turn) < (b.suite, b.conversation, b.turn)
    }

    public var description: String { "\(suite)/\(conversation) turn \(turn)" }
}
