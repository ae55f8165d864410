import ChatEvalCore
import Foundation

/// What a comparison decides about one metric.
public enum ChangeVerdict: String, Codable, Sendable, Hashable {
    /// Worse beyond the threshold, and the test says it is no accident.
    case regression
    /// Better beyond the threshold, and the test says it is no accident.
    case improvement
    /// The interval lies within the threshold: any change is smaller than it.
    case unchanged
    /// The interval rules out a change past the threshold in the worse direction, but reaches
    /// past it in the better one: not a regression, and too few replays to tell an improvement.
    case notWorse = "not_worse"
    /// Neither: too few or too noisy replays to decide at this threshold (`repetitionsNeeded`
    /// forecasts how many would).
    case underpowered
    /// One side has no values (a metric a runtime does not measure, or turns that failed).
    case notMeasured = "not_measured"
    /// The metric has no threshold in the settings: its change is shown, never decided, and it
    /// stays out of the family. Not a pass: nothing was claimed about it.
    case notGated = "not_gated"
    /// Worse past the threshold, as a head commit's `ChatEval-Expect` trailer says it would be:
    /// reported, never failed.
    case accepted

    /// The verdict as reports print it ("not worse"); `rawValue` is the stable JSON spelling.
    public var words: String { rawValue.replacingOccurrences(of: "_", with: " ") }
}
