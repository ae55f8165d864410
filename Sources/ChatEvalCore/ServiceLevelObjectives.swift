/// Latency objectives for serving under load, as a suite states them (`slo:`), and the goodput
/// they define.
///
/// Goodput follows vLLM's serving benchmark (`benchmark_serving.py --goodput ttft:MS tpot:MS
/// e2el:MS`, after DistServe, OSDI 2024) and NVIDIA AIPerf (`--goodput`): the completed requests
/// per second that meet *every* per-request objective. A request here is one turn; a failed turn
/// is never good. TPOT is a request's time per output token after the first,
/// (total − TTFT) / (tokens − 1), and 0 for a one-token answer (as vLLM counts it); E2EL is its
/// total time.
///
/// An objective may also name a percentile (`ttft_p95: 1s`): the load level then *meets* it when
/// that percentile of the metric over the level's answered turns is within the bound — the same
/// as "at least 95% of requests meet it", the attainment form DistServe uses.
public struct ServiceLevelObjectives: Codable, Sendable, Hashable {
    /// The metrics an objective may bound, each under the name vLLM's `--goodput` gives it:
    /// `ttft`, `tpot` and `e2el` (end-to-end latency: the turn's `total-time`).
    public static let metrics: [(name: String, metric: Metric)] = [
        ("ttft", .timeToFirstToken), ("tpot", .timePerOutputToken), ("e2el", .totalTime),
    ]

    /// The objective name of `metric` (`e2el` for `total-time`), or nil when no objective bounds it.
    public static func name(of metric: Metric) -> String? { metrics.first { $0.metric == metric }?.name }

    public struct Objective: Codable, Sendable, Hashable {
        public var metric: Metric
        /// Largest value a good request may have, in seconds.
        public var bound: Double
        /// When set (50, 90, 95, 99), this percentile over the level must be within the bound.
        public var percentile: Int?

        public init(metric: Metric, bound: Double, percentile: Int? = nil) {
            self.metric = metric
            self.bound = bound
            self.percentile = percentile
        }

        /// `ttft_p95` or `ttft`, as written in a suite.
        public var name: String {
            (ServiceLevelObjectives.name(of: metric) ?? metric.rawValue) + (percentile.map { "_p\($0)" } ?? "")
        }
    }

    /// The percentiles an objective may name: those of `Statistic` (`ttft_p50` … `ttft_p99`).
    public static let percentiles = Statistic.allCases.compactMap(\.percentile)

    /// At most one per metric.
    public var objectives: [Objective]

    public init(_ objectives: [Objective]) {
        self.objectives = objectives
    }

    /// True when `turn` meets every objective's bound.
    public func isGood(_ turn: TurnMetrics) -> Bool {
        objectives.allSatisfy { ($0.metric.value(of: turn) ?? .infinity) <= $0.bound }
    }
}
