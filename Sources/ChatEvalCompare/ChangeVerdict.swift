/// What a comparison decides about a change between base and head: one vocabulary for a
/// metric (`MetricChange`), a check's pass count (`CheckChange`), a turn's answered count
/// (`TurnChange`) and a variant matrix's cell (`VariantMatrix.Cell`), as package-benchmark has one
/// deviation type for every metric. Not every kind applies to everything: a metric is never
/// flaky or undecided (counts are), a count is never not worse, underpowered, not measured, not
/// gated or accepted (an expected check regression moves to `QualityComparison.accepted`), and a
/// matrix cell is only ever a regression, an improvement or undecided.
///
/// `rawValue` is the stable JSON spelling (`not_worse`): result and comparison files on disk and
/// `--json` consumers read it, so it never changes. Reports name a verdict by `words`.
///
/// Named `ChangeVerdict`, not `Verdict`: `ChatEvalCore.Verdict` is one check's result on one answer.
public enum ChangeVerdict: String, Codable, Sendable, Hashable, CaseIterable {
    /// Worse beyond the threshold (a metric), or significantly less often (a count), and the test
    /// says it is no accident: gates.
    case regression
    /// Better beyond the threshold, or significantly more often, and the test says it is no accident.
    case improvement
    /// A metric whose interval lies within the threshold (any change is smaller than it), or a
    /// count that is the same on both sides.
    case unchanged
    /// A metric whose interval rules out a change past the threshold in the worse direction, but
    /// reaches past it in the better one: not a regression, and too few replays to tell an improvement.
    case notWorse = "not_worse"
    /// A metric with too few or too noisy replays to decide at this threshold
    /// (`MetricChange.repetitionsNeeded` forecasts how many would).
    case underpowered
    /// A metric one side has no values of (a metric a runtime does not measure, or turns that failed).
    case notMeasured = "not_measured"
    /// A metric the settings give no threshold: its change is shown, never decided, and it stays
    /// out of the family. Not a pass: nothing was claimed about it.
    case notGated = "not_gated"
    /// A metric worse past the threshold, as a head commit's `ChatEval-Expect` trailer says it
    /// would be: reported, never failed.
    case accepted
    /// A count that is not significantly different, and not the same on every replay of one side.
    case flaky
    /// A count that is the same on every replay of each side, but not the same on both, and too
    /// few replays for the difference to be significant (1 of 1 against 0 of 1); a matrix cell
    /// that differs so.
    case undecided

    /// The verdict as every report names it for people ("not worse"); never the JSON spelling.
    public var words: String {
        switch self {
        case .regression: "regression"
        case .improvement: "improvement"
        case .unchanged: "unchanged"
        case .notWorse: "not worse"
        case .underpowered: "underpowered"
        case .notMeasured: "not measured"
        case .notGated: "not gated"
        case .accepted: "accepted"
        case .flaky: "flaky"
        case .undecided: "undecided"
        }
    }
}
