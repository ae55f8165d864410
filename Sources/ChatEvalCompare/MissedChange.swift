import ChatEvalCore
import Foundation

/// What a comparison that is not decided could not rule out: how often a head `change` worse in
/// `metric` (0.1: 10% slower, or a 10% lower rate) would have been missed in `suite`, the suite
/// where it is likeliest missed, at the repetitions measured (`MissForecast`). "Not decided" is
/// not quietly green: the verdict line says what it would have missed.
public struct MissedChange: Codable, Sendable, Hashable {
    public var suite: String
    public var metric: Metric
    /// The relative change asked about (0.1 = 10% worse).
    public var change: Double
    /// The chance of missing it, 0...1.
    public var missRate: Double
    /// Replays per conversation and side measured.
    public var repetitions: Int

    /// The change every "not decided" verdict line asks about.
    public static let asked = 0.10

    /// The priority metrics' (TTFT by default) weakest suite in `comparison`: where a change of
    /// `change` is likeliest missed; nil when no suite's spread tells.
    public static func weakest(in comparison: Comparison, change: Double = asked) -> MissedChange? {
        let metrics = comparison.settings.priorityMetrics.isEmpty ? [.timeToFirstToken] : comparison.settings.priorityMetrics
        let level = comparison.design.familyErrorRate / Double(max(comparison.family.tests, 1))
        var found: [MissedChange] = []
        for suite in comparison.suites {
            for metric in metrics {
                guard let measured = suite.metrics.first(where: { $0.metric == metric }), measured.scale == .relative,
                    let strata = measured.strata, strata > 0, let spread = measured.replaySpread
                else { continue }
                let repetitions = min(measured.baseCount, measured.headCount) / strata
                // The threshold is relative, as the change is: on the log scale the test works on.
                let bound = measured.threshold.map { log1p(abs($0)) } ?? 0
                let runError =
                    comparison.runSpread?.standardError(
                        metric, baseRuns: comparison.base.runs.count, headRuns: comparison.head.runs.count) ?? 0
                let logChange = metric.polarity == .smallerIsBetter ? log1p(change) : -log1p(-change)
                // Separately recorded runs cannot call a change under their floor at all.
                if let floor = measured.runFloor, abs(floor) > change {
                    found.append(MissedChange(suite: suite.name, metric: metric, change: change, missRate: 1, repetitions: repetitions))
                    continue
                }
                guard repetitions > 0,
                    let rate = MissForecast.missRate(
                        spread: spread, strata: strata, repetitions: repetitions, bound: bound, change: logChange, familyLevel: level,
                        runError: runError)
                else { continue }
                found.append(MissedChange(suite: suite.name, metric: metric, change: change, missRate: rate, repetitions: repetitions))
            }
        }
        return found.max { $0.missRate < $1.missRate }
    }
}
