import ChatEvalCore

/// A turn's answered count on both sides, where it changed.
public struct TurnChange: Codable, Sendable, Hashable {
    public var suite: String
    public var conversation: String
    public var turn: Int
    public var baseAnswered: Int
    public var baseTotal: Int
    public var headAnswered: Int
    public var headTotal: Int
    public var pValue: Double?
    public var adjustedPValue: Double?
    /// A count's verdict: regression, or undecided (only a turn answered less often is kept).
    public var verdict: ChangeVerdict
    /// The latest head failure (`context_overflow: ...`) or skip reason.
    public var headOutcome: String
}
