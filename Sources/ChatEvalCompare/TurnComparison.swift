import ChatEvalCore

public struct TurnComparison: Codable, Sendable {
    public var conversation: String
    /// 1-based.
    public var turn: Int
    public var metrics: [MetricChange]
}
