import ChatEvalCore

/// A metric compared with a limit, on this turn or aggregated over the conversation.
struct LimitCheck: CheckEvaluator {
    let metric: PerformanceChecks.LimitMetric
    let limit: Double
    let isMaximum: Bool
    let aggregate: Statistic?
    /// "≤ 500 ms" or "≥ 20 tokens/s": written once, when the check is built, for every detail.
    private let bound: String

    init(metric: PerformanceChecks.LimitMetric, limit: Double, isMaximum: Bool, aggregate: Statistic?) {
        self.metric = metric
        self.limit = limit
        self.isMaximum = isMaximum
        self.aggregate = aggregate
        bound = "\(isMaximum ? "≤" : "≥") \(metric.format(limit))"
    }

    /// A limit on a time, a rate or memory moves with the machine; one on a count of work does not.
    var readsMeasurements: Bool? { metric.metric.movesWithMachine }

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let value: Double
        let what: String
        if let aggregate {
            let values = subject.conversationMetrics.compactMap(metric.read)
            guard let distribution = Distribution(values) else {
                let detail =
                    "expected \(metric.name) over the conversation; "
                    + "no turn has it (\(subject.conversationMetrics.count) turns with metrics)"
                if let unknown = subject.conversationMetrics.lazy.compactMap({ $0.unknown[metric.metric] }).first {
                    return .failure(error: unknown, detail)
                }
                return .fail(detail)
            }
            value = aggregate.value(of: distribution)
            what = "\(aggregate.rawValue) \(metric.name) over \(distribution.count) turns"
        } else {
            guard let metrics = subject.metrics else {
                let why = subject.failure.map { "the turn failed (\($0))" } ?? "the turn has no metrics"
                return .fail("expected \(metric.name) \(bound); \(why)")
            }
            guard let v = metric.read(metrics) else {
                let why = metrics.reasons[metric.metric] ?? "not given"
                let detail = "expected \(metric.name) \(bound); not measured for this turn (\(why))"
                if let unknown = metrics.unknown[metric.metric] { return .failure(error: unknown, detail) }
                return .fail(detail)
            }
            value = v
            what = metric.name
        }
        let ok = isMaximum ? value <= limit : value >= limit
        return .judge(ok, "expected \(what) \(bound), measured \(metric.format(value))")
    }
}
