import Foundation

/// How much a whole run's typical level of a metric moves from one run to the next on the same
/// code and machine — the noise a comparison of two separately recorded runs cannot see inside
/// either of them. Every replay of one run shares that run's machine state (its clocks, caches,
/// neighbours, thermal state), so replays of one run against replays of another differ by the
/// runs' offset as well as by chance; a test with no run-level term reads that offset as a
/// change. Paired runs (`run --baseline`) interleave both sides and need none of this.
///
/// The spread is the standard deviation of a run's level on the logarithmic scale (so 0.05 is
/// about 5%), per metric. It comes from the base's own recorded history where there is one —
/// the runs of the base commit's first-parent ancestors, on its machine and model — estimated
/// robustly from the differences between successive runs (1.4826 · median |Δ| / √2, which a real
/// step in the history moves by one difference only, as Otava and rustc-perf do with theirs),
/// or else from a stated default measured on the project's development machines.
public struct RunToRunSpread: Codable, Sendable, Hashable {
    public enum Source: String, Codable, Sendable, Hashable {
        /// Measured from the base's recorded history.
        case history
        /// The stated default (`RunToRunSpread.stated`).
        case stated
    }

    /// Metric → standard deviation of a run's level, log scale. Metrics absent have no run-level
    /// term (shares such as reuse, which do not depend on the machine).
    public var spreads: [Metric: Double]
    public var source: Source
    /// Runs the history estimate was taken from (0 for the stated default).
    public var runs: Int

    public init(spreads: [Metric: Double], source: Source, runs: Int) {
        self.spreads = spreads
        self.source = source
        self.runs = runs
    }

    /// Fewest runs of a history that give an estimate: three differences.
    public static let minimumHistory = 4

    /// The stated default, measured on the development machine (2-core AMD EPYC, KVM) on
    /// 2026-11-26: 10 runs of one build (SmolLM2-135M, the shipped suites, 2 repetitions each)
    /// while other engineers compiled on the same cores (load average 0.7–3.3), replays measured
    /// while other processes held a quarter core left out as comparisons leave them out (15 of
    /// 240). The standard deviation of a suite's run level, median over the suites: TTFT 2.5%,
    /// prefill 3.2%, decode 5.0%, total time 3.9% — rounded up here. The same runs' successive
    /// differences gave 1.5–2.4% (the history estimator); without the load screen the spread was
    /// 14–37%: a run's level on a shared runner is heavy-tailed, which is what pairing removes.
    public static let stated = RunToRunSpread(
        spreads: [
            .timeToFirstToken: 0.03, .prefillTokensPerSecond: 0.035, .decodeTokensPerSecond: 0.05, .interTokenLatencyP50: 0.05,
            .interTokenLatencyP95: 0.06, .timePerOutputToken: 0.05, .totalTime: 0.04, .peakMemory: 0.01,
        ], source: .stated, runs: 0)

    /// The spread estimated from `levels`: one entry per run in time order, each suite's typical
    /// level of each metric (any positive value; compared on the log scale). Differences are taken
    /// between successive runs within a suite and pooled over suites per metric. Nil with fewer
    /// than `minimumHistory` runs or differences.
    public static func fromHistory(_ levels: [[String: [Metric: Double]]]) -> RunToRunSpread? {
        guard levels.count >= minimumHistory else { return nil }
        var spreads: [Metric: Double] = [:]
        for metric in Self.stated.spreads.keys {
            var differences: [Double] = []
            for (earlier, later) in zip(levels, levels.dropFirst()) {
                for (suite, values) in later {
                    guard let b = values[metric], let a = earlier[suite]?[metric], a > 0, b > 0, a.isFinite, b.isFinite else { continue }
                    differences.append(abs(Foundation.log(b) - Foundation.log(a)))
                }
            }
            guard differences.count >= minimumHistory - 1, let median = Distribution(differences)?.median else { continue }
            spreads[metric] = 1.4826 * median / 2.0.squareRoot()
        }
        return spreads.isEmpty ? nil : RunToRunSpread(spreads: spreads, source: .history, runs: levels.count)
    }

    /// Each metric's spread no smaller than `floor`'s. A history's robust estimate describes a
    /// typical pair of runs; a shared runner's offsets are heavy-tailed (measured 2026-11-26: the
    /// history said 1.9% for TTFT, yet 3 of 20 pairs of identical runs differed by 13–18%), so a
    /// history may widen the stated default, never narrow it.
    public func atLeast(_ floor: RunToRunSpread) -> RunToRunSpread {
        var widened = self
        for (metric, value) in floor.spreads { widened.spreads[metric] = max(spreads[metric] ?? 0, value) }
        return widened
    }

    /// The standard error a run-level offset adds to a change between the means of `baseRuns`
    /// and `headRuns` runs, log scale; nil when the metric has no run-level term.
    public func standardError(_ metric: Metric, baseRuns: Int, headRuns: Int) -> Double? {
        guard let spread = spreads[metric] else { return nil }
        return spread * (1 / Double(max(baseRuns, 1)) + 1 / Double(max(headRuns, 1))).squareRoot()
    }
}
