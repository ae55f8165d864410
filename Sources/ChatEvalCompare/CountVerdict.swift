import ChatEvalCore

/// What a comparison decides about a check's pass count or a turn's answered count.
public enum CountVerdict: String, Codable, Sendable, Hashable {
    /// Passes (or answers) significantly less often on head: gates.
    case regression
    /// Significantly more often on head.
    case improvement
    /// Not significant, and not the same verdict on every replay of one side.
    case flaky
    /// The same verdict on every replay of each side, but not the same on both, and too few
    /// replays for the difference to be significant (1 of 1 against 0 of 1).
    case undecided
    /// The same on both sides.
    case unchanged
}
