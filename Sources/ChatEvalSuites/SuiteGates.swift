import ChatEvalCore

/// What a suite must achieve for the run to pass (exit code 0): plain data, evaluated after the
/// run into `GateOutcome` values; only the command line turns a failed gate into an exit code.
///
/// ```yaml
/// gates:
///   min_pass_rate: 0.6          # weighted share of passed checks over the suite's measured turns
///   max_failed_turns: 0         # runtime failures that no `failure` check expected
///   metrics:
///     - {metric: ttft, stat: p95, max: 2.0}
///     - {metric: decode-tps, stat: median, min: 15}
/// ```
public struct SuiteGates: Sendable, Hashable {
    public var minimumPassRate: Double?
    public var maximumFailedTurns: Int?
    public var metrics: [MetricGate]

    public init(minimumPassRate: Double? = nil, maximumFailedTurns: Int? = nil, metrics: [MetricGate] = []) {
        self.minimumPassRate = minimumPassRate
        self.maximumFailedTurns = maximumFailedTurns
        self.metrics = metrics
    }

    public var isEmpty: Bool { minimumPassRate == nil && maximumFailedTurns == nil && metrics.isEmpty }

    /// What a suite that declares no gates is held to: every check passes and no turn fails
    /// unexpectedly — a failed check fails the run, as a failed assertion fails a promptfoo
    /// eval. A suite that tolerates failures says how many (`min_pass_rate: 0.8`).
    public static let implied = SuiteGates(minimumPassRate: 1, maximumFailedTurns: 0)
}
