import ChatEvalCore

/// One suite of a run: every measured turn's value of each metric, and its checks.
public struct SuiteDigest: Codable, Sendable, Hashable {
    public var name: String
    /// Values of the measured (not warm-up) answered turns, per metric, in record order.
    public var samples: [Metric: [Double]]
    /// Σ weight of the passed checks and of all checks (turn and conversation checks).
    public var checksPassed: Double
    public var checksTotal: Double
    /// Gates that failed at the end of the run.
    public var gatesFailed: Int

    public init(name: String, samples: [Metric: [Double]], checksPassed: Double, checksTotal: Double, gatesFailed: Int) {
        self.name = name
        self.samples = samples
        self.checksPassed = checksPassed
        self.checksTotal = checksTotal
        self.gatesFailed = gatesFailed
    }

    public init(_ suite: SuiteRecord) {
        let turns = suite.measuredTurns
        var samples: [Metric: [Double]] = [:]
        for metric in Metric.allCases {
            let values = turns.compactMap { metric.value(of: $0) }.filter(\.isFinite)
            if !values.isEmpty { samples[metric] = values }
        }
        var passed = 0.0, total = 0.0
        for verdict in suite.measuredVerdicts {
            total += verdict.weight
            if verdict.passed { passed += verdict.weight }
        }
        self.init(
            name: suite.name, samples: samples, checksPassed: passed, checksTotal: total,
            gatesFailed: suite.gates.filter { !$0.passed }.count)
    }

    /// Σ weight × passed / Σ weight; nil without checks.
    public var passRate: Double? { checksTotal > 0 ? checksPassed / checksTotal : nil }
}
