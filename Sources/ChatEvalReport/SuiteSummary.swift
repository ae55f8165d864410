import ChatEvalCore

/// Medians and 95th percentiles of the key metrics over a suite's answered turns — reuse over
/// `laterTurns` when given (the turns after each conversation's first, which could reuse), said so.
public enum SuiteSummary {
    public static let metrics: [Metric] = [.timeToFirstToken, .prefillTokensPerSecond, .decodeTokensPerSecond, .reuseRatio, .peakMemory]

    public static func render(_ turns: [TurnMetrics], laterTurns: [TurnMetrics]? = nil, indent: String) -> String {
        var table = TextTable([.init("metric", .left), .init("median"), .init("p95"), .init("turns")])
        for metric in metrics {
            let over = metric == .reuseRatio ? laterTurns ?? turns : turns
            let label = metric == .reuseRatio && laterTurns != nil ? "reuse turns ≥ 2" : metric.label
            let values = over.compactMap { metric.value(of: $0) }
            guard let distribution = Distribution(values) else {
                // A runtime that cannot tell (a server that reports no cache figures): say so, not "–".
                let unknown = !turns.isEmpty && Self.unknown(metric, turns)
                table.add([label, unknown ? "unknown" : "–", unknown ? "unknown" : "–", "0"])
                continue
            }
            table.add([
                label, Format.value(distribution.median, of: metric), Format.value(distribution.p95, of: metric),
                String(values.count),
            ])
        }
        return table.render(indent: indent)
    }

    /// True when no turn has `metric` because the runtime does not report it.
    static func unknown(_ metric: Metric, _ turns: [TurnMetrics]) -> Bool {
        switch metric {
        case .reuseRatio: turns.allSatisfy { $0.reusedTokens == nil }
        case .prefillTokensPerSecond: turns.allSatisfy { $0.reusedTokens == nil || $0.prefillTime == nil }
        case .peakMemory: turns.allSatisfy { $0.peakResidentBytes == nil }
        default: false
        }
    }
}
