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
    public enum Metric: String, Codable, Sendable, Hashable, CaseIterable {
        case timeToFirstToken = "ttft"
        case timePerOutputToken = "tpot"
        case endToEndLatency = "e2el"

        /// This metric of one answered turn, in seconds.
        public func value(of turn: TurnMetrics) -> Double {
            switch self {
            case .timeToFirstToken: turn.timeToFirstToken
            case .timePerOutputToken:
                turn.generatedTokens > 1 ? (turn.totalTime - turn.timeToFirstToken) / Double(turn.generatedTokens - 1) : 0
            case .endToEndLatency: turn.totalTime
            }
        }
    }

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
        public var name: String { metric.rawValue + (percentile.map { "_p\($0)" } ?? "") }
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
        objectives.allSatisfy { $0.metric.value(of: turn) <= $0.bound }
    }
}
