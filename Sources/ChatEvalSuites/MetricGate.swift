import ChatEvalCore

/// A bound on a statistic of a metric over a suite's measured turns.
public struct MetricGate: Sendable, Hashable {
    public var metric: Metric
    public var statistic: Statistic
    public var minimum: Double?
    public var maximum: Double?

    public init(metric: Metric, statistic: Statistic, minimum: Double? = nil, maximum: Double? = nil) {
        self.metric = metric
        self.statistic = statistic
        self.minimum = minimum
        self.maximum = maximum
    }
}
