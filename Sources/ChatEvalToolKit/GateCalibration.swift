import ChatEvalCompare
import ChatEvalCore
import ChatEvalStore
import Foundation

/// Measures the gate itself on seeded synthetic samples: how often it flags a change between two
/// identical builds (its false-alarm rate), how often it catches a real one (its power), and —
/// with a sequential design — how many repetitions it took to decide.
///
/// Every turn of every conversation has its own typical value of each compared metric, and every
/// replay draws each metric around it with a log-normal spread of the given coefficient of
/// variation, of which `sharedVariance` is shared by all turns of the replay (the machine's state
/// during it; 0 for independent turns, about 0.5–0.7 measured on the development machine).
/// Metrics are drawn independently of each other (the hardest case for a family-wise rate:
/// correlated metrics false-alarm together, not separately). Checks pass with a probability per
/// side. The samples then go through exactly the decisions `RunComparator` makes for recorded
/// runs: the same replay values, tests, family, adjustment, thresholds and looks (the
/// comparator's package-level pieces: `RunComparator.decide`, `QualityComparator.Counts`).
/// A scenario of separately recorded runs (`Scenario.recorded`) gives each side's run its own
/// offset and decides with the run-to-run term `compare` adds for them (`Level.runTerm`).
///
/// For the tests and the gate bench only: it lives here, outside what `chateval` links.
public struct GateCalibration: Sendable {
    public struct Scenario: Sendable {
        /// Per suite, the turns of each of its conversations.
        public var suites: [[Int]]
        /// Repetitions per side (the last look's, for a sequential design).
        public var repetitions: Int
        /// Standard deviation ÷ mean of every measured value (0.1 = 10%).
        public var coefficientOfVariation: Double
        /// Share of each value's variance common to all turns of its replay (0...1).
        public var sharedVariance: Double
        /// Relative slowdown of head's time to first token in the first suite (0.1 = 10% slower);
        /// 0 for identical builds.
        public var slowdown: Double
        /// The same for base (a bisection's probes compare two commits either side of a step).
        public var baseSlowdown: Double = 0
        /// Checks of the first suite's first conversation: each one's pass probability on base and head.
        public var checks: [(base: Double, head: Double)]
        /// nil: one look at `repetitions`. Otherwise the looks of a paired run, which stops at
        /// the first look where everything is decided or a regression is found.
        public var design: SequentialDesign?
        /// nil: base and head measured in one paired run (no run-level offset). Otherwise two
        /// separately recorded runs, each with its own offset, decided the way `compare` decides
        /// them (`RunComparator.Level.runTerm`).
        public var recorded: RecordedRuns?

        public init(
            suites: [[Int]], repetitions: Int, coefficientOfVariation: Double, sharedVariance: Double = 0, slowdown: Double = 0,
            checks: [(base: Double, head: Double)] = [], design: SequentialDesign? = nil, recorded: RecordedRuns? = nil
        ) {
            self.suites = suites
            self.repetitions = repetitions
            self.coefficientOfVariation = coefficientOfVariation
            self.sharedVariance = sharedVariance
            self.slowdown = slowdown
            self.checks = checks
            self.design = design
            self.recorded = recorded
        }

        /// One conversation of `turns` turns per suite.
        public init(
            suiteTurns: [Int], repetitions: Int, coefficientOfVariation: Double, sharedVariance: Double = 0, slowdown: Double = 0,
            design: SequentialDesign? = nil
        ) {
            self.init(
                suites: suiteTurns.map { [$0] }, repetitions: repetitions, coefficientOfVariation: coefficientOfVariation,
                sharedVariance: sharedVariance, slowdown: slowdown, design: design)
        }
    }

    /// Two separately recorded runs: what their machine states really do, and what the
    /// comparison assumes of them.
    ///
    /// Each simulated run draws, per metric, an offset shared by every replay of it on the log
    /// scale: normal with the standard deviation `truth.spreads[metric] × spreadScale`; and, with
    /// probability `truth.heavyTail.share` per run (one draw for the whole run), every timing
    /// metric (`HeavyTail.applies(to:)`) slower by a factor 1 + c, c uniform between the tail's
    /// `smallest` and `largest` and drawn per metric. The offsets of base and head are
    /// independent; replays are drawn around them as in a paired scenario.
    public struct RecordedRuns: Sendable {
        /// The machine's run offsets (its normal spread and heavy tail).
        public var truth: RunToRunSpread
        /// Times the truth's normal spread: 1.5 or 2 for a runner noisier than the comparison assumes.
        public var spreadScale: Double
        /// The spread the comparison assumes (`compare` takes the stated one, or a history's at least that).
        public var assumed: RunToRunSpread

        public init(truth: RunToRunSpread = .stated, spreadScale: Double = 1, assumed: RunToRunSpread = .stated) {
            self.truth = truth
            self.spreadScale = spreadScale
            self.assumed = assumed
        }

        /// One run's offsets, log scale, aligned with `metrics`.
        func draw(_ metrics: [Metric], _ random: inout SeededRandom) -> [Double] {
            let disturbed = truth.heavyTail.map { random.uniform() < $0.share } ?? false
            return metrics.map { metric in
                var offset = (truth.spreads[metric] ?? 0) * spreadScale * random.normal()
                if disturbed, let tail = truth.heavyTail, RunToRunSpread.HeavyTail.applies(to: metric) {
                    let slower = log1p(tail.smallest + (tail.largest - tail.smallest) * random.uniform())
                    offset += metric.polarity == .smallerIsBetter ? slower : -slower
                }
                return offset
            }
        }
    }

    public struct Outcome: Sendable {
        public var trials: Int
        /// Comparisons that reported any metric, check or turn as a regression: with identical
        /// builds, the gate's false alarms (it fails CI on regressions only).
        public var anyRegression = 0
        /// Comparisons that reported anything as a regression or improvement.
        public var anyChange = 0
        /// Comparisons that reported TTFT of the first suite as a regression.
        public var ttftRegression = 0
        /// Comparisons whose TTFT of the first suite ended underpowered, or unchanged.
        public var ttftUnderpowered = 0
        public var ttftUnchanged = 0
        /// Comparisons whose TTFT of the first suite ended "not worse".
        public var ttftNotWorse = 0
        /// Comparisons that reported a check as a regression.
        public var checkRegression = 0
        /// Comparisons that ended with everything decided.
        public var decided = 0
        /// Repetitions per side each comparison used (the design's look where it stopped).
        public var repetitionsUsed: [Int] = []
        /// The last comparison's TTFT of the first suite, when asked to keep it.
        public var lastTTFT: MetricChange?
        /// Of separately recorded runs: each comparison's smallest TTFT change of the first suite it
        /// could call (`MetricChange.runFloor`).
        public var ttftFloors: [Double] = []

        public var anyRegressionRate: Double { Double(anyRegression) / Double(max(trials, 1)) }
        public var anyChangeRate: Double { Double(anyChange) / Double(max(trials, 1)) }
        public var ttftRegressionRate: Double { Double(ttftRegression) / Double(max(trials, 1)) }
        public var checkRegressionRate: Double { Double(checkRegression) / Double(max(trials, 1)) }
        public var medianRepetitions: Double { Distribution(repetitionsUsed.map(Double.init))?.median ?? 0 }
        /// The A/A (or detection) rate with its 95% Clopper–Pearson interval.
        public var anyRegressionInterval: ClopperPearson? { ClopperPearson(successes: anyRegression, trials: trials) }
        public var ttftRegressionInterval: ClopperPearson? { ClopperPearson(successes: ttftRegression, trials: trials) }
        /// The median of `ttftFloors` (the lower middle: infinite floors, where no change could be
        /// called, count as the largest).
        public var medianTTFTFloor: Double? { ttftFloors.isEmpty ? nil : ttftFloors.sorted()[(ttftFloors.count - 1) / 2] }
    }

    public var settings: ComparisonSettings
    /// Relabellings drawn per comparison where the family's cannot all be enumerated: fewer than
    /// a comparison of recorded runs draws (`JointFamily.samples`), so that thousands of
    /// comparisons run in seconds; the resolution, 1/1,001, is a tenth of the default 1% rate.
    public var permutationSamples: Int

    public init(settings: ComparisonSettings, permutationSamples: Int = 1_000) {
        self.settings = settings
        self.permutationSamples = permutationSamples
    }

    /// Runs `trials` comparisons of `scenario` from `seed`.
    public func run(_ scenario: Scenario, trials: Int, seed: UInt64) -> Outcome {
        run(scenario, trials: trials, seed: seed, keepingTTFT: false)
    }

    func run(_ scenario: Scenario, trials: Int, seed: UInt64, keepingTTFT: Bool) -> Outcome {
        var random = SeededRandom(seed: seed)
        var outcome = Outcome(trials: trials)
        // Typical values per suite, conversation, turn and metric, fixed for all trials.
        let levels = scenario.suites.map { conversations in
            conversations.map { turns in (0..<turns).map { _ in settings.metrics.map { Self.typicalValue(of: $0, &random) } } }
        }
        let design = scenario.design ?? .fixed(scenario.repetitions)
        for _ in 0..<trials {
            // A design has at least one look (`SequentialDesign.fixed` makes one of any count).
            guard let trial = self.trial(scenario, levels: levels, design: design, &random) else { continue }
            let changes = trial.changes, quality = trial.quality
            let regression = changes.contains { $0.verdict == .regression } || quality.hasRegression
            let decided = !changes.contains { $0.verdict == .underpowered } && quality.undecided.isEmpty
            outcome.repetitionsUsed.append(trial.repetitions)
            if regression { outcome.anyRegression += 1 }
            if regression || changes.contains(where: { $0.verdict == .improvement }) || !quality.improvements.isEmpty {
                outcome.anyChange += 1
            }
            if keepingTTFT { outcome.lastTTFT = changes.first { $0.metric == .timeToFirstToken } }
            if let floor = changes.first(where: { $0.metric == .timeToFirstToken })?.runFloor { outcome.ttftFloors.append(floor) }
            let ttft = changes.first { $0.metric == .timeToFirstToken }?.verdict
            if ttft == .regression { outcome.ttftRegression += 1 }
            if ttft == .underpowered { outcome.ttftUnderpowered += 1 }
            if ttft == .unchanged { outcome.ttftUnchanged += 1 }
            if ttft == .notWorse { outcome.ttftNotWorse += 1 }
            if !quality.regressions.isEmpty { outcome.checkRegression += 1 }
            if decided { outcome.decided += 1 }
        }
        return outcome
    }

    /// One comparison of `scenario` run to the look where it stops, on typical values drawn
    /// from `random` first (as `run` draws them once for all its trials): the first suite's TTFT
    /// and the repetitions per side it took. A bisection bench's probe.
    public func compareOnce(_ scenario: Scenario, _ random: inout SeededRandom) -> (ttft: MetricChange?, repetitions: Int) {
        let levels = scenario.suites.map { conversations in
            conversations.map { turns in (0..<turns).map { _ in settings.metrics.map { Self.typicalValue(of: $0, &random) } } }
        }
        let trial = self.trial(scenario, levels: levels, design: scenario.design ?? .fixed(scenario.repetitions), &random)
        return (trial?.changes.first { $0.metric == .timeToFirstToken }, trial?.repetitions ?? 0)
    }

    /// One comparison: repetitions drawn look by look until one decides (everything decided or a
    /// regression) or the last; its changes, quality and repetitions per side (nil for a design
    /// without looks).
    private func trial(_ scenario: Scenario, levels: [[[[Double]]]], design: SequentialDesign, _ random: inout SeededRandom) -> (
        changes: [MetricChange], quality: QualityComparison, repetitions: Int
    )? {
        var sides = (base: Sample(), head: Sample())
        var drawn = 0
        var last: (changes: [MetricChange], quality: QualityComparison, repetitions: Int)?
        for (index, repetitions) in design.looks.enumerated() {
            while drawn < repetitions {
                drawn += 1
                draw(into: &sides.base, levels: levels, scenario: scenario, head: false, &random)
                draw(into: &sides.head, levels: levels, scenario: scenario, head: true, &random)
            }
            let look = ComparisonLook(index: index, of: design)
            let (changes, quality) = decide(sides, scenario: scenario, look: look)
            let regression = changes.contains { $0.verdict == .regression } || quality.hasRegression
            let decided = !changes.contains { $0.verdict == .underpowered } && quality.undecided.isEmpty
            last = (changes, quality, repetitions)
            if regression || decided { break }
        }
        return last
    }

    /// How often the forecast of an underpowered comparison (`MetricChange.repetitionsNeeded`)
    /// decides: each trial compares `scenario` at its repetitions; when TTFT of the first suite is
    /// underpowered, a fresh comparison at the forecast count (at most 300) is run, and counted
    /// decided when TTFT is no longer underpowered there.
    public func forecastAccuracy(_ scenario: Scenario, trials: Int, seed: UInt64) -> (asked: Int, decided: Int, medianForecast: Double) {
        var random = SeededRandom(seed: seed)
        var asked = 0, decided = 0
        var forecasts: [Double] = []
        for trial in 0..<trials {
            let first = run(scenario, trials: 1, seed: random.next(), keepingTTFT: true)
            guard let ttft = first.lastTTFT, ttft.verdict == .underpowered, let needed = ttft.repetitionsNeeded, needed <= 300 else {
                continue
            }
            asked += 1
            forecasts.append(Double(needed))
            var again = scenario
            again.repetitions = needed
            let second = run(again, trials: 1, seed: UInt64(trial) &* 0x9E37_79B9 &+ random.next(), keepingTTFT: true)
            if let verdict = second.lastTTFT?.verdict, verdict != .underpowered { decided += 1 }
        }
        return (asked, decided, Distribution(forecasts)?.median ?? 0)
    }

    /// The HPT line's calibration (`HPTVerdict`): `trials` comparisons of `scenario` at its
    /// repetitions, drawn as `run` draws them, each summarised over every suite's conversations
    /// on TTFT as `compare` summarises a comparison. Identical builds (`slowdown` 0) measure how
    /// often it says "≥ 95% likely slower" by chance; a slowdown, what it prints then.
    public func hptVerdicts(_ scenario: Scenario, trials: Int, seed: UInt64) -> [HPTVerdict] {
        var random = SeededRandom(seed: seed)
        let levels = scenario.suites.map { conversations in
            conversations.map { turns in (0..<turns).map { _ in settings.metrics.map { Self.typicalValue(of: $0, &random) } } }
        }
        guard let ttft = settings.metrics.firstIndex(of: .timeToFirstToken) else { return [] }
        return (0..<trials).compactMap { _ in
            var sides = (base: Sample(), head: Sample())
            for _ in 0..<scenario.repetitions {
                draw(into: &sides.base, levels: levels, scenario: scenario, head: false, &random)
                draw(into: &sides.head, levels: levels, scenario: scenario, head: true, &random)
            }
            let strata = scenario.suites.indices.flatMap { suite in
                ReplaySample.strata(base: sides.base.replays[suite][ttft], head: sides.head.replays[suite][ttft], onLogScale: true)
            }
            return HPTVerdict.of(strata: strata, suite: nil, metric: .timeToFirstToken)
        }
    }

    /// The replays drawn so far on one side: per suite and metric, the replay samples; the
    /// checks' pass counts.
    struct Sample {
        var replays: [[[ReplaySample]]] = []  // suite → metric → replays
        /// Of a separately recorded run: its offset per metric (log scale), shared by all its replays.
        var runOffsets: [Double]?
        /// suite → each replay's checks, aligned with `replays[suite][metric]`.
        var outcomes: [[ReplayOutcome]] = []
        var passed: [Int] = []
        var total = 0
    }

    private func draw(into sample: inout Sample, levels: [[[[Double]]]], scenario: Scenario, head: Bool, _ random: inout SeededRandom) {
        let variance = log1p(scenario.coefficientOfVariation * scenario.coefficientOfVariation)
        let shared = (variance * scenario.sharedVariance).squareRoot(), own = (variance * (1 - scenario.sharedVariance)).squareRoot()
        if sample.replays.isEmpty {
            sample.replays = levels.map { _ in settings.metrics.map { _ in [] } }
            sample.outcomes = levels.map { _ in [] }
            // A separately recorded run: its machine state, drawn once, moves every replay of it.
            sample.runOffsets = scenario.recorded?.draw(settings.metrics, &random)
        }
        let firstReplay = sample.outcomes.first?.count ?? 0
        for (suite, conversations) in levels.enumerated() {
            for (conversation, turns) in conversations.enumerated() {
                sample.outcomes[suite].append(ReplayOutcome(conversation: "c\(conversation + 1)"))
                for (index, metric) in settings.metrics.enumerated() {
                    var slower = suite == 0 && metric == .timeToFirstToken ? 1 + (head ? scenario.slowdown : scenario.baseSlowdown) : 1
                    if let offsets = sample.runOffsets { slower *= exp(offsets[index]) }
                    let replayEffect = shared * random.normal()
                    var values: [Int: Double] = [:]
                    for (turn, typical) in turns.enumerated() {
                        values[turn] = typical[index] * slower * exp(replayEffect + own * random.normal() - variance / 2)
                    }
                    sample.replays[suite][index].append(ReplaySample(conversation: "c\(conversation + 1)", values: values))
                }
            }
        }
        if sample.passed.isEmpty { sample.passed = scenario.checks.map { _ in 0 } }
        for (index, check) in scenario.checks.enumerated() {
            let passed = random.uniform() < (head ? check.head : check.base)
            if passed { sample.passed[index] += 1 }
            if !sample.outcomes.isEmpty { sample.outcomes[0][firstReplay].checks[Self.checkKey(index)] = passed }
        }
        sample.total += 1
    }

    private func decide(_ sides: (base: Sample, head: Sample), scenario: Scenario, look: ComparisonLook) -> (
        [MetricChange], QualityComparison
    ) {
        var pending: [RunComparator.PendingChange] = []
        for suite in scenario.suites.indices {
            for (index, metric) in settings.metrics.enumerated() {
                pending.append(
                    RunComparator.PendingChange(
                        suite: "suite\(suite + 1)", turn: nil, metric: metric,
                        base: sides.base.replays[suite][index], head: sides.head.replays[suite][index]))
            }
        }
        func tally(_ passed: Int, _ total: Int) -> QualityComparator.Tally {
            var tally = QualityComparator.Tally()
            tally.passed = passed
            tally.total = total
            return tally
        }
        let checks = scenario.checks.indices.map { index in
            let base = tally(sides.base.passed[index], sides.base.total), head = tally(sides.head.passed[index], sides.head.total)
            return QualityComparator.Counts.Entry(
                key: Self.checkKey(index),
                base: base, head: head,
                fisher: FisherExact(basePassed: base.passed, baseTotal: base.total, headPassed: head.passed, headTotal: head.total))
        }
        let counts = QualityComparator.Counts(checks: checks, turns: [])
        var outcomes: [String: ReplayOutcomes] = [:]
        for suite in scenario.suites.indices {
            outcomes["suite\(suite + 1)"] = ReplayOutcomes(base: sides.base.outcomes[suite], head: sides.head.outcomes[suite])
        }
        var level = RunComparator.Level(settings: settings, share: look.share, intervalShare: look.intervalShare)
        if let recorded = scenario.recorded {
            level.setRunTerm(recorded.assumed, settings: settings, suites: scenario.suites.count, baseRuns: 1, headRuns: 1)
        }
        let (changes, quality, _) = RunComparator.decide(
            pending, counts: counts, outcomes: outcomes, level: level, settings: settings, suiteSettings: [:], samples: permutationSamples)
        return (changes, quality)
    }

    /// The key of the scenario's check `index` (all on the first suite's first conversation's first turn).
    static func checkKey(_ index: Int) -> QualityComparator.CheckKey {
        QualityComparator.CheckKey(suite: "suite1", conversation: "c1", turn: 0, position: index, check: "check")
    }

    /// A typical per-turn value of a small model on a laptop-class CPU.
    private static func typicalValue(of metric: Metric, _ random: inout SeededRandom) -> Double {
        let u = random.uniform()
        switch metric {
        case .timeToFirstToken: return 0.05 + u  // 50 ms to 1 s
        case .totalTime: return 0.5 + 2 * u
        case .timePerOutputToken, .interTokenLatencyP50, .interTokenLatencyP95: return 0.01 + 0.02 * u
        case .prefillTokensPerSecond: return 100 + 900 * u
        case .decodeTokensPerSecond: return 30 + 70 * u
        case .peakMemory: return 2e8 + 2e8 * u
        case .reuseRatio: return 0.3 + 0.6 * u
        case .reuseEfficiency: return 0.7 + 0.3 * u
        case .generatedTokens: return 8 + 56 * u
        }
    }
}
