import ChatEvalCore
import ChatEvalStore
import Foundation

/// What `chateval history` shows, as data (documented by `reports/schema/history.schema.json`):
/// the commits walked, and one series per suite × machine × model × metric with a point per
/// commit that has results and the steps found in it.
public struct History: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// The commits walked, oldest first (`chateval history` walks first-parent from HEAD).
    public var commits: [CommitSummary]
    /// The metrics asked for, by name (`ttft`, `decode-tps`, ..., `pass-rate`).
    public var metrics: [String]
    public var series: [HistorySeries]
    /// Runs of these commits left out, and why.
    public var skippedDirtyRuns: Int
    public var skippedIncompleteRuns: Int
    /// The change-point method's settings.
    public var detection: Detection

    public struct Detection: Codable, Sendable, Hashable {
        public var method: String
        public var alpha: Double
        public var permutations: Int
        public var minimumSegment: Int
    }

    public init(
        commits: [CommitSummary], metrics: [String], series: [HistorySeries], skippedDirtyRuns: Int, skippedIncompleteRuns: Int,
        detection: Detection
    ) {
        schemaVersion = Self.currentSchemaVersion
        self.commits = commits
        self.metrics = metrics
        self.series = series
        self.skippedDirtyRuns = skippedDirtyRuns
        self.skippedIncompleteRuns = skippedIncompleteRuns
        self.detection = detection
    }

    /// Steps that made a metric worse, over all series.
    public var regressions: [(series: HistorySeries, step: HistoryStep)] {
        series.flatMap { series in series.steps.filter(\.isWorse).map { (series, $0) } }
    }

    /// The commit at `position` of `commits`.
    public func commit(at position: Int) -> CommitSummary? {
        commits.indices.contains(position) ? commits[position] : nil
    }
}
