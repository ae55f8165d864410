import ChatEvalStore

/// How a run is split or loaded (`--shard I/N`, `--concurrency N[,M...]`, `--sweep-chart`).
package struct LoadRequest: Sendable {
    /// The concurrency levels, in the order given; nil without --concurrency.
    package var levels: [Int]?
    package var shard: RunShard?
    /// Where a sweep writes its SVG chart (nil: beside the result files).
    package var sweepChart: String?

    package init(levels: [Int]? = nil, shard: RunShard? = nil, sweepChart: String? = nil) {
        self.levels = levels
        self.shard = shard
        self.sweepChart = sweepChart
    }
}
