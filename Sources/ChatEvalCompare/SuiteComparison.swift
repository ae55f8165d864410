import ChatEvalCore

/// A suite's metrics, and the same per turn for the detail.
public struct SuiteComparison: Codable, Sendable {
    public var name: String
    /// Replays of this suite left out on both sides together (other processes held the cores).
    public var leftOut: Int
    /// Suite-level comparisons: these gate (one family with the checks and turns).
    public var metrics: [MetricChange]
    /// Per-turn detail: shown, adjusted over all turns of the comparison, never gating.
    public var turns: [TurnComparison]
    /// The suite in one line, HPT-style (`HPTVerdict`): a summary, never a gate; absent in
    /// comparisons written before it.
    public var hpt: HPTVerdict?
}
