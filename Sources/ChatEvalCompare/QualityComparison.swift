import ChatEvalCore

/// Checks and turns whose outcome changed between the sides. Each check's pass counts are
/// tested with Fisher's exact test in the same family as the metrics.
public struct QualityComparison: Codable, Sendable {
    /// Checks passing significantly less often on head.
    public var regressions: [CheckChange]
    /// Checks passing significantly more often on head.
    public var improvements: [CheckChange]
    /// Mixed verdicts on a side, and no significant change: reported, never gated.
    public var flaky: [CheckChange]
    /// Constant on each side but different (passed 3 of 3, fails 3 of 3), not yet significant:
    /// more replays would decide.
    public var undecided: [CheckChange]
    /// Checks that exist on one side only.
    public var added: [CheckChange]
    public var removed: [CheckChange]
    /// Turns answered significantly less often on head (failed or skipped instead).
    public var turnRegressions: [TurnChange]
    /// Turns answered on every base replay and failing on every head replay, not yet significant.
    public var turnsUndecided: [TurnChange]

    /// Check regressions a head commit's `ChatEval-Expect` trailer expects: reported, not failed.
    public var accepted: [CheckChange]?
    public var hasRegression: Bool { !regressions.isEmpty || !turnRegressions.isEmpty }
}
