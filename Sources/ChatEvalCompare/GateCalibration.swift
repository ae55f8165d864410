import ChatEvalCore
import ChatEvalStore
import Foundation

/// Measures the gate itself on seeded synthetic samples: how often it flags a change between two
/// identical builds (its false-alarm rate) and how often it catches a real one (its power).
///
/// Every turn of every suite has its own typical value of each compared metric, and every
/// replay draws each metric independently around it with a log-normal spread of the given
/// coefficient of variation (independent metrics are the hardest case for a family-wise rate:
/// correlated metrics false-alarm together, not separately). The samples then go through the
/// decisions `RunComparator` makes for recorded runs: the same tests, adjustment and thresholds.
public struct GateCalibration: Sendable {
    public struct Scenario: Sendable {
        /// Turns of each suite.
        public var suiteTurns: [Int]
        public var repetitions: Int
        /// Standard deviation ÷ mean of every measured value (0.1 = 10%).
        public var coefficientOfVariation: Double
        /// Relative slowdown of head's time to first token in the first suite (0.1 = 10% slower);
        /// 0 for identical builds.
        public var slowdown: Double

        public init(suiteTurns: [Int], repetitions: Int, coefficientOfVariation: Double, slowdown: Double = 0) {
            self.suiteTurns = suiteTurns
            self.repetitions = repetitions
            self.coefficientOfVariation = coefficientOfVariation
            self.slowdown = slowdown
        }
    }

    public struct Outcome: Sendable {
        public var trials: Int
        /// Comparisons that reported any metric of any suite as a regression: with identical
        /// builds, the gate's false alarms (it fails CI on regressions only).
        public var anyRegression: Int
        /// Comparisons that reported any metric of any suite as a regression or improvement.
        public var anyChange: Int
        /// Comparisons that reported TTFT of the first suite as a regression.
        public var ttftRegression: Int
        /// Comparisons whose TTFT of the first suite was underpowered.
        public var ttftUnderpowered: Int

        public var anyRegressionRate: Double { Double(anyRegression) / Double(max(trials, 1)) }
        public var anyChangeRate: Double { Double(anyChange) / Double(max(trials, 1)) }
        public var ttftRegressionRate: Double { Double(ttftRegression) / Double(max(trials, 1)) }
    }

    public var settings: ComparisonSettings

    public init(settings: ComparisonSettings) { self.settings = settings }

    /// Runs `trials` comparisons of `scenario` from `seed`.
    public func run(_ scenario: Scenario, trials: Int, seed: UInt64) -> Outcome {
        var random = SeededRandom(seed: seed)
        var outcome = Outcome(trials: trials, anyRegression: 0, anyChange: 0, ttftRegression: 0, ttftUnderpowered: 0)
        // Typical values per suite, turn and metric, fixed for all trials.
        let levels = scenario.suiteTurns.map { turns in
            (0..<turns).map { _ in settings.metrics.map { Self.typicalValue(of: $0, &random) } }
        }
        let sigma = log1p(scenario.coefficientOfVariation * scenario.coefficientOfVariation).squareRoot()
        for _ in 0..<trials {
            var family: [RunComparator.PendingChange] = []
            for (suite, turns) in levels.enumerated() {
                for (index, metric) in settings.metrics.enumerated() {
                    let slower = suite == 0 && metric == .timeToFirstToken ? 1 + scenario.slowdown : 1
                    let strata = turns.map { turn in
                        (base: (0..<scenario.repetitions).map { _ in turn[index] * exp(sigma * random.normal() - sigma * sigma / 2) },
                         head: (0..<scenario.repetitions).map { _ in turn[index] * slower * exp(sigma * random.normal() - sigma * sigma / 2) })
                    }
                    family.append(RunComparator.PendingChange(suite: "suite\(suite + 1)", turn: nil, metric: metric, strata: strata))
                }
            }
            let verdicts = RunComparator.decide(family, settings: settings)
            if verdicts.contains(where: { $0.verdict == .regression }) { outcome.anyRegression += 1 }
            if verdicts.contains(where: { $0.verdict == .regression || $0.verdict == .improvement }) { outcome.anyChange += 1 }
            let ttft = verdicts.first { $0.metric == .timeToFirstToken }?.verdict
            if ttft == .regression { outcome.ttftRegression += 1 }
            if ttft == .underpowered { outcome.ttftUnderpowered += 1 }
        }
        return outcome
    }

    /// A typical per-turn value of a small model on a laptop-class CPU.
    private static func typicalValue(of metric: Metric, _ random: inout SeededRandom) -> Double {
        let u = random.uniform()
        switch metric {
        case .timeToFirstToken: return 0.05 + u            // 50 ms to 1 s
        case .totalTime: return 0.5 + 2 * u
        case .interTokenLatencyP50, .interTokenLatencyP95: return 0.01 + 0.02 * u
        case .prefillTokensPerSecond: return 100 + 900 * u
        case .decodeTokensPerSecond: return 30 + 70 * u
        case .peakMemory: return 2e8 + 2e8 * u
        case .reuseRatio: return 0.3 + 0.6 * u
        case .generatedTokens: return 8 + 56 * u
        }
    }
}
