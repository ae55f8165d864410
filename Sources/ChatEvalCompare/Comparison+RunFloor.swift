import ChatEvalCore

extension Comparison {
    /// One gated metric's floor over separately recorded runs: the smallest change toward worse
    /// any suite of this comparison could call (`MetricChange.runFloor`, the least over suites),
    /// and the suite it is in.
    public struct RunFloor: Sendable, Hashable {
        public var metric: Metric
        /// Relative, toward worse (+0.31 for a time, −0.25 for a rate); infinite when no suite's
        /// replays could bound a change.
        public var change: Double
        public var suite: String
    }

    /// Per gated metric measured on both sides, in the settings' order: the smallest change the
    /// run-to-run term lets this comparison of separately recorded runs call. Empty for a paired
    /// run (no run term).
    public var runFloors: [RunFloor] {
        guard runSpread != nil else { return [] }
        var floors: [RunFloor] = []
        for metric in settings.metrics {
            let candidates = suites.compactMap { suite -> RunFloor? in
                guard let change = suite.metrics.first(where: { $0.metric == metric }), let floor = change.runFloor,
                    change.threshold != nil, change.verdict != .notMeasured
                else { return nil }
                return RunFloor(metric: metric, change: floor, suite: suite.name)
            }
            if let least = candidates.min(by: { abs($0.change) < abs($1.change) }) { floors.append(least) }
        }
        return floors
    }
}
