import ChatEvalCore

/// A check whose verdict is the same on every replay of each side and differs between them,
/// on a turn whose answers repeat exactly on both: a certain change at any repetition count.
public struct ExactCheckChange: Codable, Sendable, Hashable {
    public var turn: LedgerTurn
    /// 0-based position among the turn's checks.
    public var position: Int
    public var check: String
    /// True when the check passes on head (and failed on base): an improvement.
    public var headPasses: Bool
    public var baseReplays: Int
    public var headReplays: Int
    public var answer: TextDivergence?
    /// The commit whose `ChatEval-Expect` trailer expects this check to fail: reported, not failed.
    public var acceptedBy: String?
}
