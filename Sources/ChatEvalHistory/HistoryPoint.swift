import ChatEvalCore
import ChatEvalStore
import Foundation

/// A commit's value of a series.
public struct HistoryPoint: Codable, Sendable {
    /// Position of the commit in `History.commits`.
    public var position: Int
    public var commit: String
    /// Runs pooled, and the values they hold (turns for a timing; runs for the pass rate).
    public var runs: Int
    public var samples: Int
    /// Median of the pooled values (for the pass rate: all checks of all runs pooled).
    public var median: Double
    /// The spread: 25th and 75th percentiles of the values (for the pass rate: the lowest and
    /// highest run), and the extremes.
    public var lower: Double
    public var upper: Double
    public var minimum: Double
    public var maximum: Double
    /// The machines' names and engine builds of the runs.
    public var hostnames: [String]
    public var builds: [String]
}
