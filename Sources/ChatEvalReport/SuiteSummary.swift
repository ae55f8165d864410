import ChatEvalCore

/// Medians and 95th percentiles of the key metrics over a suite's answered turns.
public enum SuiteSummary {
    public static let metrics: [Metric] = [.timeToFirstToken, .prefillTokensPerSecond, .decodeTokensPerSecond, .reuseRatio, .peakMemory]

    public static func render(_ turns: [TurnMetrics], indent: String) -> String {
        var table = TextTable([.init("metric", .left), .init("median"), .init("p95"), .init("turns")])
        for metric in metrics {
            let values = turns.compactMap { metric.value(of: $0) }
            let distribution = Distribution(values)
            table.add([metric.label, Format.value(distribution?.median, of: metric), Format.value(distribution?.p95, of: metric), String(values.count)])
        }
        return table.render(indent: indent)
    }
}
