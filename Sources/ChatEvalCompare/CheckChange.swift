import ChatEvalCore

/// One check in both sides' replays.
public struct CheckChange: Codable, Sendable, Hashable {
    public var suite: String
    public var conversation: String
    /// 1-based turn, or nil for a conversation-level check.
    public var turn: Int?
    /// 1-based position among the turn's (or conversation's) checks.
    public var position: Int
    public var check: String
    public var basePassed: Int
    public var baseTotal: Int
    public var headPassed: Int
    public var headTotal: Int
    /// Fisher's exact test of the two pass counts, and after Holm's adjustment (absent when the
    /// counts could not reach the family's level, or the check is on one side only).
    public var pValue: Double?
    public var adjustedPValue: Double?
    /// A count's verdict: regression, improvement, flaky, undecided, or unchanged (a check on one side only).
    public var verdict: ChangeVerdict
    /// The latest head verdict's detail (what was expected and found), and an excerpt of the answer.
    public var detail: String?
    public var answerExcerpt: String?

    /// Head's pass rate minus base's.
    public var rateDifference: Double {
        Double(headPassed) / Double(max(headTotal, 1)) - Double(basePassed) / Double(max(baseTotal, 1))
    }

    /// A flaky check whose pass rate moved by this much or more, not yet significantly, keeps a
    /// paired run going: smaller moves are the noise of a flaky check, not a change worth more replays.
    public static let openDifference = 0.25
}
