import ChatEvalCore
import ChatEvalStore
import Foundation

/// One metric of one `SeriesKey` across the commits.
public struct HistorySeries: Codable, Sendable {
    public var key: SeriesKey
    public var metric: HistoryMetric
    /// One per commit with results, oldest first; commits without a point are gaps.
    public var points: [HistoryPoint]
    public var steps: [HistoryStep]
}
