import ChatEvalCore

/// What a run under load (`run --concurrency N`) measured as a whole: throughput, latency
/// percentiles under that load, errors, and goodput against the suites' objectives.
///
/// A request is one turn. Counts cover the measured (not warm-up) conversations; the duration
/// runs from the first measured request sent to the last one finished, as vLLM's serving
/// benchmark measures it.
public struct LoadSummary: Codable, Sendable, Hashable {
    /// Conversations replayed at once.
    public var concurrency: Int
    /// Shared by the runs of one sweep (`--concurrency 1,2,4`), one run per level.
    public var sweepId: String?
    /// Seconds from the first measured request to the end of the last.
    public var duration: Double
    /// Turns sent (answered and failed; skipped turns were never sent).
    public var requests: Int
    public var failedRequests: Int
    /// failed / sent; 0 when nothing was sent.
    public var errorRate: Double
    /// Answered turns per second.
    public var requestsPerSecond: Double
    /// Generated tokens of answered turns per second.
    public var outputTokensPerSecond: Double
    public var timeToFirstToken: Distribution?
    /// Gaps between streamed pieces of every answered turn, pooled.
    public var interTokenLatency: Distribution?
    /// Answered turns that met every objective of their suite; nil when no suite states objectives.
    public var goodRequests: Int?
    /// goodRequests per second (vLLM's and AIPerf's goodput); nil without objectives.
    public var goodput: Double?
    /// The suites' percentile objectives (`ttft_p95: 1s`), judged over this level.
    public var objectives: [ObjectiveOutcome]

    public init(
        concurrency: Int, sweepId: String? = nil, duration: Double, requests: Int, failedRequests: Int, errorRate: Double,
        requestsPerSecond: Double, outputTokensPerSecond: Double, timeToFirstToken: Distribution?, interTokenLatency: Distribution?,
        goodRequests: Int?, goodput: Double?, objectives: [ObjectiveOutcome]
    ) {
        self.concurrency = concurrency
        self.sweepId = sweepId
        self.duration = duration
        self.requests = requests
        self.failedRequests = failedRequests
        self.errorRate = errorRate
        self.requestsPerSecond = requestsPerSecond
        self.outputTokensPerSecond = outputTokensPerSecond
        self.timeToFirstToken = timeToFirstToken
        self.interTokenLatency = interTokenLatency
        self.goodRequests = goodRequests
        self.goodput = goodput
        self.objectives = objectives
    }

    /// A percentile objective of a suite, judged over the level.
    public struct ObjectiveOutcome: Codable, Sendable, Hashable {
        public var suite: String
        /// As written: `ttft_p95`.
        public var objective: String
        /// The bound, in seconds.
        public var bound: Double
        /// The percentile measured over the suite's answered turns, in seconds; nil when none answered.
        public var measured: Double?
        public var met: Bool

        public init(suite: String, objective: String, bound: Double, measured: Double?, met: Bool) {
            self.suite = suite
            self.objective = objective
            self.bound = bound
            self.measured = measured
            self.met = met
        }
    }

    /// The summary of `suites`' measured replays over `duration` seconds; `objectives` maps a
    /// suite name to its objectives.
    public static func summarize(
        _ suites: [SuiteRecord], objectives: [String: ServiceLevelObjectives], concurrency: Int, duration: Double, sweepId: String? = nil
    ) -> LoadSummary {
        var requests = 0, failed = 0, outputTokens = 0
        var good: Int?
        var firstTokenTimes: [Double] = [], gaps: [Double] = []
        var outcomes: [ObjectiveOutcome] = []
        for suite in suites {
            let turns = suite.conversations.filter { !$0.warmup }.flatMap(\.turns)
            let answered = turns.compactMap { $0.status == .answered ? $0.metrics : nil }
            requests += turns.filter { $0.status != .skipped }.count
            failed += turns.filter { $0.status == .failed }.count
            outputTokens += answered.reduce(0) { $0 + $1.generatedTokens }
            firstTokenTimes += answered.map(\.timeToFirstToken)
            gaps += answered.flatMap(\.interTokenLatencies)
            guard let slo = objectives[suite.name], !slo.objectives.isEmpty else { continue }
            good = (good ?? 0) + answered.filter(slo.isGood).count
            for objective in slo.objectives {
                guard let percentile = objective.percentile else { continue }
                let values = answered.compactMap(objective.metric.value(of:)).filter(\.isFinite).sorted()
                let measured = values.isEmpty ? nil : Distribution.percentile(sorted: values, Double(percentile))
                outcomes.append(
                    ObjectiveOutcome(
                        suite: suite.name, objective: objective.name, bound: objective.bound,
                        measured: measured, met: measured.map { $0 <= objective.bound } ?? false))
            }
        }
        let seconds = duration > 0 ? duration : .nan
        let answeredCount = requests - failed
        return LoadSummary(
            concurrency: concurrency, sweepId: sweepId, duration: duration, requests: requests, failedRequests: failed,
            errorRate: requests > 0 ? Double(failed) / Double(requests) : 0,
            requestsPerSecond: duration > 0 ? Double(answeredCount) / seconds : 0,
            outputTokensPerSecond: duration > 0 ? Double(outputTokens) / seconds : 0,
            timeToFirstToken: Distribution(firstTokenTimes), interTokenLatency: Distribution(gaps),
            goodRequests: good, goodput: good.map { duration > 0 ? Double($0) / seconds : 0 }, objectives: outcomes)
    }
}
