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
    /// The share of runs a shared runner disturbs as a whole, and by how much; nil for a spread
    /// with a normal tail only (and in comparisons written before it).
    public var heavyTail: HeavyTail?

    public init(spreads: [Metric: Double], source: Source, runs: Int, heavyTail: HeavyTail? = nil) {
        self.spreads = spreads
        self.source = source
        self.runs = runs
        self.heavyTail = heavyTail
    }

    /// The heavy tail of a shared runner's run offsets, as a contaminated normal: a run is
    /// disturbed as a whole with probability `share`, and then every timing metric of it (times
    /// and rates, not memory or shares) is slower by a factor 1 + c, c between `smallest` and
    /// `largest` (drawn per metric), on top of the normal spread every run has.
    ///
    /// Measured 2026-11-26 on the development machine: of 20 pairs of separately recorded runs of
    /// identical code (`run --repeat 2` at 21 empty-diff commits, busy replays left out), 3 differed
    /// by 13–18% on a whole run, the other 17 within the normal spread. A share of 8% disturbed
    /// runs puts a disturbed run in 1 − 0.92² = 15% of pairs, 3 of 20; the offsets span what was
    /// seen. A Student-t would spread the same mass over every size of offset; the measured ones
    /// were a cluster apart from the rest, which a contaminated normal describes.
    public struct HeavyTail: Codable, Sendable, Hashable {
        /// Probability that a run is disturbed as a whole.
        public var share: Double
        /// A disturbed run's slowdown, relative (0.13 = 13% slower), its least and its most.
        public var smallest: Double
        public var largest: Double

        public init(share: Double, smallest: Double, largest: Double) {
            self.share = share
            self.smallest = smallest
            self.largest = largest
        }

        /// The measured tail: 8% of runs, 13–18% slower.
        public static let measured = HeavyTail(share: 0.08, smallest: 0.13, largest: 0.18)

        /// True for the metrics a disturbed machine slows: times and rates.
        public static func applies(to metric: Metric) -> Bool {
            metric.unit == .seconds || metric.unit == .tokensPerSecond
        }
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
    /// Its heavy tail (`HeavyTail.measured`) is that of the 20 pairs of separately recorded runs
    /// the README reports: 3 of them 13–18% apart.
    public static let stated = RunToRunSpread(
        spreads: [
            .timeToFirstToken: 0.03, .prefillTokensPerSecond: 0.035, .decodeTokensPerSecond: 0.05, .interTokenLatencyP50: 0.05,
            .interTokenLatencyP95: 0.06, .timePerOutputToken: 0.05, .totalTime: 0.04, .peakMemory: 0.01,
        ], source: .stated, runs: 0, heavyTail: .measured)

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
        // A history of a few dozen runs cannot rule a disturbed run out: the floor's tail holds.
        if let tail = floor.heavyTail {
            let own = heavyTail ?? tail
            widened.heavyTail = HeavyTail(
                share: max(own.share, tail.share), smallest: min(own.smallest, tail.smallest), largest: max(own.largest, tail.largest))
        }
        return widened
    }

    /// The standard error a run-level offset adds to a change between the means of `baseRuns`
    /// and `headRuns` runs, log scale; nil when the metric has no run-level term.
    public func standardError(_ metric: Metric, baseRuns: Int, headRuns: Int) -> Double? {
        guard let spread = spreads[metric] else { return nil }
        return spread * (1 / Double(max(baseRuns, 1)) + 1 / Double(max(headRuns, 1))).squareRoot()
    }

    /// The smallest shift, log scale, that two sides' runs leave with a one-sided chance of at
    /// most `rate` when nothing changed: the run offsets (`baseRuns` and `headRuns` runs pooled a
    /// side) and the within-run standard error `withinRun` of the shift, toward worse for head
    /// (`worse`) or toward better. nil when the metric has no run-level term; infinite when
    /// `withinRun` is (the replays cannot bound the shift).
    ///
    /// Without a heavy tail this is z(1 − rate) · √(σ²(1/nb + 1/nh) + se²). With one, a head run
    /// disturbed j of nh times moves the shift toward worse by at most j · log(1 + largest) / nh
    /// (a disturbed base moves it toward better, which only lowers the chance of "worse"), so
    /// P(shift ≥ x) ≤ Σⱼ Binomial(j; nh, share) · Φ̄((x − j · log(1 + largest) / nh) / s): the x
    /// where that bound reaches `rate`, by bisection. Each disturbed run is taken at its largest
    /// offset, so the bound holds for any offsets within the tail's range.
    public func callableShift(_ metric: Metric, baseRuns: Int, headRuns: Int, withinRun: Double, rate: Double, worse: Bool = true)
        -> Double?
    {
        guard let runError = standardError(metric, baseRuns: baseRuns, headRuns: headRuns) else { return nil }
        guard withinRun.isFinite, rate > 0 else { return .infinity }
        let s = (runError * runError + withinRun * withinRun).squareRoot()
        guard let tail = heavyTail, Self.HeavyTail.applies(to: metric), tail.share > 0, s > 0 else {
            return RankShift.normalQuantile(1 - rate) * s
        }
        // The runs whose disturbance moves the shift this way: head's toward worse, base's toward better.
        let runs = max(worse ? headRuns : baseRuns, 1)
        let step = log1p(tail.largest) / Double(runs)
        let weights = (0...runs).map { j in
            exp(FisherExact.logChoose(runs, j) + Double(j) * log(tail.share) + Double(runs - j) * log1p(-tail.share))
        }
        let chance = { (x: Double) in
            weights.enumerated().reduce(0.0) { $0 + $1.element * RankShift.normalUpperTail((x - Double($1.offset) * step) / s) }
        }
        var low = 0.0, high = step * Double(runs) + 40 * s
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if chance(middle) > rate { low = middle } else { high = middle }
        }
        return high
    }
}
