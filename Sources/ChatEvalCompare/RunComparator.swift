import ChatEvalCore
import ChatEvalStore
import Foundation

/// Compares a base and a head, metric by metric and check by check.
///
/// **The unit is the replay.** The turns of one replay of a conversation run seconds apart and
/// share the machine's state: measured on this project's development machine, 48–71% of the
/// variance of a turn's log TTFT, decode rate and total time is shared by the turns of its replay
/// (the intraclass correlation, 12 replays of the 8-turn conversation and 48 of the 3-turn ones).
/// Testing the turns as if independent calls one slow replay a regression: in a simulation with
/// half the variance shared, about half of all comparisons of identical builds did. So each
/// replay counts once: its value of a metric is the mean, over its turns, of the turn's value
/// against the turn's typical value (the median over both sides' replays of that turn, on a
/// logarithmic scale for times and rates so that changes are ratios; a difference for ratios such
/// as reuse, which can be 0). Replays are compared within their conversation (each a stratum)
/// with `RankShift` — van Elteren's test, exact wherever it can be enumerated — whose
/// Hodges-Lehmann estimate and interval are the change reported. A suite of one-turn
/// conversations is thus compared turn by turn as before; one replay of a many-turn conversation
/// per side cannot be told apart from a slow replay, and the comparison says so.
///
/// **One family.** Every gated suite metric (one with a threshold), every check's pass counts
/// and every turn's answered counts form one family at the look's false-alarm rate, decided by
/// relabelling the replays within each conversation jointly for all of them (`JointFamily`,
/// Westfall–Young min-P): the metrics of one replay move together, and the family pays only for
/// the chances the data really had. Regressions are tested one-sided (the gate asks "worse?"),
/// improvements in their own one-sided family. Per-turn metric detail is a second family (Holm
/// over Tarone's testable set, `MultipleTesting`), shown and never gated.
///
/// **Verdicts.** A metric is a regression (or improvement) when its adjusted p-value is within
/// the family's rate, its interval excludes no change, and its estimated change passes the
/// practical threshold; unchanged when its interval lies within the threshold; not worse when
/// only its worse end does (no regression, but it could be an improvement); underpowered
/// otherwise, with a forecast of the repetitions that would decide (`RepetitionForecast`); not
/// gated when the settings give it no threshold (shown, never decided, never a pass). A check is
/// a regression when it passes significantly less often on head.
///
/// **Separately recorded runs** (`runSpread`): every replay of a run shares its machine state,
/// so two runs differ by their offset as well as by chance. Their intervals are widened by the
/// run-to-run spread, and a change is a regression only when it also passes the run offsets and
/// its own within-run error together at the family's rate, heavy tail included
/// (`RunToRunSpread.callableShift`); each change records the smallest one it could have called
/// (`MetricChange.runFloor`). `compare` takes the spread from the base's history or a stated default.
///
/// **Load.** A replay measured while other processes used `busyThreshold` cores or more (a
/// quarter of a core by default) is left out of the comparison and counted, as is one a paired
/// run marked and re-measured (`ConversationRecord.leftOut`); in-process runs only (a served
/// run's load is the server's). Only the two runs of one paired job compared with each other
/// (`ComparedRuns.onePairedJob`) skip the per-replay screen: their pairs were screened while
/// measured. `busy_threshold: off` keeps every replay.
public enum RunComparator {
    /// `settings` are the preset and project file's; each suite's own thresholds (recorded in
    /// head's runs) come on top, then `commandLine`. `turnDetail: false` leaves out the per-turn
    /// rows (they never gate; a calibration that runs thousands of comparisons needs none).
    public static func compare(
        base: ComparedRuns, head: ComparedRuns, settings projectSettings: ComparisonSettings,
        commandLine: ComparisonOverrides = ComparisonOverrides(), turnDetail: Bool = true, look: ComparisonLook = .single,
        runSpread: RunToRunSpread? = nil
    ) -> Comparison {
        var settings = projectSettings.applying(commandLine)
        // Peak memory measured in different process contexts, not each above its model's own baseline, is
        // not the same quantity on both sides: it is left out, and the comparison says why.
        let memoryContext = MemoryContext.between(base: base.runs, head: head.runs)
        if memoryContext?.compared == false { settings.metrics.removeAll { $0 == .peakMemory } }
        let suiteSettings = Self.suiteSettings(head.runs, project: projectSettings, commandLine: commandLine)
        // Only the two runs of one paired job keep the pairing's screen; any others are screened
        // replay by replay, whatever recorded them.
        let paired = ComparedRuns.onePairedJob(base: base.runs, head: head.runs)
        let (baseReplays, baseLeftOut, baseLoad) = measuredReplaysCounting(base.runs, busyThreshold: settings.busyThreshold, paired: paired)
        let (headReplays, headLeftOut, headLoad) = measuredReplaysCounting(head.runs, busyThreshold: settings.busyThreshold, paired: paired)
        let suiteOrder = suiteNames(head.runs).filter { baseReplays[$0] != nil && headReplays[$0] != nil }
        var level = Level(settings: settings, share: look.share, intervalShare: look.intervalShare)
        if let runSpread {
            level.setRunTerm(runSpread, settings: settings, suites: suiteOrder.count, baseRuns: base.runs.count, headRuns: head.runs.count)
        }

        var suiteTests: [PendingChange] = []
        var turnTests: [PendingChange] = []
        for suite in suiteOrder {
            guard let baseSuite = baseReplays[suite], let headSuite = headReplays[suite] else { continue }
            for metric in settings.metrics {
                let base = baseSuite.map { $0.sample(metric) }, head = headSuite.map { $0.sample(metric) }
                suiteTests.append(
                    PendingChange(
                        suite: suite, turn: nil, metric: metric, base: base, head: head,
                        leftOut: (baseLeftOut[suite] ?? 0) + (headLeftOut[suite] ?? 0)))
                if turnDetail { turnTests += Self.turnTests(suite: suite, metric: metric, base: base, head: head) }
            }
        }
        let counts = QualityComparator.tally(base: base.runs, head: head.runs)
        let outcomes = suiteOrder.reduce(into: [String: ReplayOutcomes]()) { found, suite in
            found[suite] = ReplayOutcomes(base: baseReplays[suite]!.map(\.outcome), head: headReplays[suite]!.map(\.outcome))
        }
        let (suiteChanges, quality, family) = decide(
            suiteTests, counts: counts, outcomes: outcomes, level: level, settings: settings, suiteSettings: suiteSettings)
        let turnChanges = decideDetail(turnTests, level: level, settings: settings, suiteSettings: suiteSettings)

        let turnRows = Dictionary(grouping: zip(turnTests, turnChanges), by: { $0.0.suite })
        let suiteRows = Dictionary(grouping: zip(suiteTests, suiteChanges), by: { $0.0.suite })
        let suites = suiteOrder.map { suite in
            let rows = Dictionary(grouping: turnRows[suite] ?? [], by: { $0.0.turn! })
            return SuiteComparison(
                name: suite, leftOut: (baseLeftOut[suite] ?? 0) + (headLeftOut[suite] ?? 0),
                metrics: (suiteRows[suite] ?? []).map(\.1),
                turns: rows.keys.sorted().map { key in
                    TurnComparison(conversation: key.conversation, turn: key.turn &+ 1, metrics: rows[key]!.map(\.1))
                })
        }
        let reps = (base.runs + head.runs).map(\.settings.repetitions).max() ?? 1
        let design = ComparisonDesign(
            look: look.index + 1, looks: look.design.isSequential ? look.design.looks : [reps], share: look.share,
            familyErrorRate: level.alpha, confidence: level.confidence)
        var comparison = Comparison(
            base: side(base), head: side(head), settings: settings, design: design, family: family,
            differences: SettingDifferences.between(base: base.runs, head: head.runs),
            suites: suites, quality: quality, load: LoadComparison(base: baseLoad, head: headLoad))
        let screened = !paired && (base.runs + head.runs).contains { $0.runtime.inProcess != false }
        comparison.load.screenedAt = screened ? settings.busyThreshold : nil
        comparison.inputs = InputDifferences.between(base: base.runs, head: head.runs)
        comparison.runSpread = runSpread
        comparison.memoryContext = memoryContext
        // The one-line summary a person reads first (never a gate); calibrations, which ask for no detail, skip it.
        if turnDetail {
            comparison.attachHPT(HPTVerdict.of(baseReplays: baseReplays, headReplays: headReplays, settings: settings, suites: suiteOrder))
        }
        if !comparison.isDecided { comparison.missed = MissedChange.weakest(in: comparison) }
        return comparison
    }

    /// Each suite's own settings (its `compare:` section over the project's, the command line
    /// over both), for the suites that have one.
    static func suiteSettings(_ runs: [RunRecord], project: ComparisonSettings, commandLine: ComparisonOverrides) -> [String:
        ComparisonSettings]
    {
        var found: [String: ComparisonSettings] = [:]
        for suite in runs.flatMap(\.suites) {
            if let own = suite.comparison { found[suite.name] = project.applying(own).applying(commandLine) }
        }
        return found
    }

    /// The error rates a look decides at.
    /// (Package access, as are `PendingChange`, `TurnKey` and `decide`: the gate's calibration in
    /// ChatEvalToolKit decides its synthetic samples through them.)
    package struct Level {
        /// The family's false-alarm rate at this look.
        var alpha: Double
        /// The level of the intervals at this look.
        var confidence: Double
        /// One-sided non-coverage of the intervals.
        var tail: Double { (1 - confidence) / 2 }

        /// For separately recorded runs: their run-to-run spread, how many runs each side pools,
        /// and the gated metric tests it applies to (among which the family's rate is shared).
        package var runTerm: (spread: RunToRunSpread, baseRuns: Int, headRuns: Int, tests: Int)?

        package init(settings: ComparisonSettings, share: Double, intervalShare: Double? = nil) {
            alpha = settings.familyErrorRate * share
            confidence = 1 - (1 - settings.confidence) * (intervalShare ?? share)
        }

        /// Separately recorded runs' term: `spread`, over the gated metrics it has a spread for in
        /// each of `suites` suites.
        package mutating func setRunTerm(_ spread: RunToRunSpread, settings: ComparisonSettings, suites: Int, baseRuns: Int, headRuns: Int)
        {
            let metrics = settings.metrics.filter { spread.spreads[$0] != nil && settings.thresholds[$0] != nil }.count
            runTerm = (spread, baseRuns, headRuns, max(1, metrics * suites))
        }
    }

    // MARK: Replays

    /// A turn's place in a suite.
    package struct TurnKey: Hashable, Comparable {
        var conversation: String
        /// 0-based.
        var turn: Int
        package static func < (a: TurnKey, b: TurnKey) -> Bool { (a.conversation, a.turn) < (b.conversation, b.turn) }
    }

    /// One measured replay of a conversation: its answered turns' metrics (none when its timings
    /// were left out for a busy machine), and what its checks and turns showed.
    struct Replay {
        var conversation: String
        var turns: [Int: TurnMetrics]
        var outcome: ReplayOutcome

        func sample(_ metric: Metric) -> ReplaySample {
            ReplaySample(conversation: conversation, values: turns.compactMapValues(metric.value))
        }
    }

    /// Suite name → its measured replays, and what the load left out, for one side (not one arm
    /// of a paired job compared with the other: every replay is screened).
    static func measuredReplays(_ runs: [RunRecord], busyThreshold: Double? = ComparisonSettings.defaultBusyThreshold) -> (
        [String: [Replay]], SideLoad
    ) {
        let (suites, _, load) = measuredReplaysCounting(runs, busyThreshold: busyThreshold, paired: false)
        return (suites, load)
    }

    /// As `measuredReplays`, with the replays left out per suite. `paired`: the side is one arm of
    /// a paired job compared with its other arm (`ComparedRuns.onePairedJob`).
    static func measuredReplaysCounting(_ runs: [RunRecord], busyThreshold: Double?, paired: Bool) -> (
        [String: [Replay]], [String: Int], SideLoad
    ) {
        var suites: [String: [Replay]] = [:]
        var leftOutBySuite: [String: Int] = [:]
        var sampled = 0, leftOut = 0, remeasured = 0
        var loads: [Double] = []
        for run in runs {
            // A served run's "other processes" include the server: its load says nothing. The arms
            // of one paired job compared with each other were screened pair by pair while measured
            // (an arm disturbed unlike the other is marked `leftOut`): a steady load both arms saw
            // is noise the pairing cancels. Compared with anything else — a run of another job, a
            // plain run — nothing pairs them, and every replay is screened by its own load.
            let screens = run.runtime.inProcess != false && busyThreshold != nil && !paired
            for suite in run.suites {
                for conversation in suite.conversations where !conversation.warmup {
                    if let load = conversation.load {
                        sampled += 1
                        loads.append(load.otherCores)
                    }
                    if conversation.leftOut != nil && busyThreshold != nil {
                        suites[suite.name, default: []] = suites[suite.name, default: []]
                        leftOutBySuite[suite.name, default: 0] += 1
                        // A paired run marks the disturbed replay and measures it again.
                        if suite.conversations.contains(where: {
                            $0.id == conversation.id && $0.repetition == conversation.repetition && $0.leftOut == nil
                        }) {
                            remeasured += 1
                        } else {
                            leftOut += 1
                        }
                        continue
                    }
                    let outcome = ReplayOutcome(suite: suite.name, conversation: conversation)
                    if screens, let load = conversation.load, load.otherCores >= busyThreshold ?? .infinity {
                        leftOut += 1
                        leftOutBySuite[suite.name, default: 0] += 1
                        // Its checks and answers count; its timings do not.
                        suites[suite.name, default: []].append(Replay(conversation: conversation.id, turns: [:], outcome: outcome))
                        continue
                    }
                    var turns: [Int: TurnMetrics] = [:]
                    for turn in conversation.turns where turn.status == .answered {
                        if let metrics = turn.metrics { turns[turn.index] = metrics }
                    }
                    suites[suite.name, default: []].append(Replay(conversation: conversation.id, turns: turns, outcome: outcome))
                }
            }
        }
        let mean = loads.isEmpty ? nil : loads.reduce(0, +) / Double(loads.count)
        return (suites, leftOutBySuite, SideLoad(sampled: sampled, leftOut: leftOut, remeasured: remeasured, meanOtherCores: mean))
    }

    /// Suite names in the order the runs list them.
    private static func suiteNames(_ runs: [RunRecord]) -> [String] {
        var seen = Set<String>()
        return runs.flatMap { $0.suites.map(\.name) }.filter { seen.insert($0).inserted }
    }

    /// One test per turn measured on both sides, each with that turn's samples from its own
    /// conversation's replays, in replay order. (Scanning every replay of the suite for every turn
    /// was quadratic in the conversations.)
    private static func turnTests(suite: String, metric: Metric, base: [ReplaySample], head: [ReplaySample]) -> [PendingChange] {
        let baseByConversation = Dictionary(grouping: base, by: \.conversation)
        let headByConversation = Dictionary(grouping: head, by: \.conversation)
        return turnKeys(base, head).map { key in
            PendingChange(
                suite: suite, turn: key, metric: metric,
                base: (baseByConversation[key.conversation] ?? []).compactMap { $0.only(key) },
                head: (headByConversation[key.conversation] ?? []).compactMap { $0.only(key) })
        }
    }

    private static func turnKeys(_ base: [ReplaySample], _ head: [ReplaySample]) -> [TurnKey] {
        let keys = { (samples: [ReplaySample]) in
            Set(samples.flatMap { sample in sample.values.keys.map { TurnKey(conversation: sample.conversation, turn: $0) } })
        }
        return keys(base).intersection(keys(head)).sorted()
    }

    private static func side(_ side: ComparedRuns) -> ComparedSide {
        let latest = side.runs.max { $0.startedAt < $1.startedAt }
        return ComparedSide(
            commit: latest?.git?.commit, shortCommit: latest?.git?.shortCommit, subject: latest?.git?.subject,
            dirty: side.runs.contains { $0.git?.isDirty == true }, runs: side.runs.map(\.runId), sources: side.sources,
            model: latest.map { "\($0.runtime.model.description) (\(URL(fileURLWithPath: $0.runtime.model.path).lastPathComponent))" }
                ?? "",
            machine: latest.map { "\($0.machine.cpuModel), \($0.machine.logicalCores) cores" } ?? "",
            repetitions: side.runs.reduce(0) { $0 + $1.settings.repetitions })
    }

    // MARK: Testing

    /// A metric's values in one suite (or one turn), not yet tested.
    package struct PendingChange {
        var suite: String
        var turn: TurnKey?
        var metric: Metric
        var base: [ReplaySample]
        var head: [ReplaySample]
        /// Replays of the suite left out on either side for a busy machine.
        var leftOut: Int = 0

        package init(suite: String, turn: TurnKey?, metric: Metric, base: [ReplaySample], head: [ReplaySample], leftOut: Int = 0) {
            self.suite = suite
            self.turn = turn
            self.metric = metric
            self.base = base
            self.head = head
            self.leftOut = leftOut
        }
    }

    /// A change tested but not yet decided.
    struct TestedChange {
        var metric: Metric
        /// Every turn value of each side, for the medians shown.
        var baseValues: [Double]
        var headValues: [Double]
        /// A typical turn on each side (`ReplaySample.typicalTurn`), the level the shift moves.
        var typicalTurn: (base: Double, head: Double)?
        var shift: RankShift?
        /// Pooled standard deviation of a replay's value within conversations and sides, on the
        /// compared scale (for the forecast).
        var spread: Double
        /// Replays per conversation and side (the median): the repetitions measured.
        var repetitions: Int
        /// Replays of this suite left out on either side for a busy machine.
        var leftOut: Int = 0
        /// Each replay's value as compared (`ReplaySample.summaries`), aligned with base + head.
        var summaries: [Double?] = []
    }

    /// Metrics compared as differences rather than ratios (they can be 0).
    static func comparesDifferences(_ metric: Metric) -> Bool { metric.unit == .ratio }

    static func test(_ pending: PendingChange, confidence: Double) -> TestedChange {
        let onLog = !comparesDifferences(pending.metric)
        let summaries = ReplaySample.summaries(pending.base + pending.head, onLogScale: onLog)
        let strata = ReplaySample.strata(base: pending.base, head: pending.head, summaries: summaries)
        var squares = 0.0, degrees = 0
        let counts = strata.flatMap { [$0.base.count, $0.head.count] }.sorted()
        for stratum in strata {
            for side in [stratum.base, stratum.head] where side.count > 1 {
                let mean = side.reduce(0, +) / Double(side.count)
                squares += side.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
                degrees += side.count - 1
            }
        }
        return TestedChange(
            metric: pending.metric,
            baseValues: pending.base.flatMap { $0.values.values }, headValues: pending.head.flatMap { $0.values.values },
            typicalTurn: ReplaySample.typicalTurn(base: pending.base, head: pending.head, onLogScale: onLog),
            shift: RankShift(strata: strata, confidence: confidence),
            spread: degrees > 0 ? (squares / Double(degrees)).squareRoot() : 0,
            repetitions: counts.isEmpty ? 0 : counts[counts.count / 2], leftOut: pending.leftOut, summaries: summaries)
    }

    /// Tests the gated family — suite metrics with a threshold, checks and turns — and decides
    /// every member at the look's level, jointly over the replays they share (`JointFamily`).
    /// `outcomes` holds, per suite, each replay's checks and turns in the order of the metrics'
    /// replay samples.
    package static func decide(
        _ metrics: [PendingChange], counts: QualityComparator.Counts, outcomes: [String: ReplayOutcomes], level: Level,
        settings: ComparisonSettings, suiteSettings: [String: ComparisonSettings], samples: Int = JointFamily.samples
    ) -> ([MetricChange], QualityComparison, TestFamily) {
        let tested = metrics.map { test($0, confidence: level.confidence) }
        let gated = zip(metrics, tested).map { pending, test in
            (suiteSettings[pending.suite] ?? settings).thresholds[pending.metric] != nil && test.shift != nil
        }
        let joint = JointFamily.decide(
            metrics: metrics, tested: tested, gated: gated, counts: counts, outcomes: outcomes, alpha: level.alpha, samples: samples)
        let changes = zip(metrics, zip(tested, joint.metrics)).map { pending, item in
            verdict(
                for: item.0, decision: item.1, familySize: joint.family.tests, level: level,
                settings: suiteSettings[pending.suite] ?? settings)
        }
        let quality = QualityComparator.decide(counts, checkDecisions: joint.checks, turnDecisions: joint.turns)
        return (changes, quality, joint.family)
    }

    /// The per-turn detail: its own family at the same level, never gating.
    static func decideDetail(
        _ family: [PendingChange], level: Level, settings: ComparisonSettings, suiteSettings: [String: ComparisonSettings]
    ) -> [MetricChange] {
        let tested = family.map { test($0, confidence: level.confidence) }
        let slots = tested.map { $0.shift.map { ($0.pValue, $0.minimumPValue) } }
        let decisions = MultipleTesting.decide(slots.compactMap { $0 }, alpha: level.alpha)
        var next = 0
        // Counted once: counted for every test it made the detail quadratic in its tests (about
        // 9 per turn: 20,000 turns, 3×10^10 steps).
        let familySize = decisions.filter { $0.adjustedPValue != nil }.count
        return zip(family, tested).map { pending, test in
            var decision: MultipleTesting.Decision?
            if test.shift != nil {
                decision = decisions[next]
                next += 1
            }
            return verdict(
                for: test, decision: decision, familySize: familySize, level: level, settings: suiteSettings[pending.suite] ?? settings)
        }
    }

    /// "95%", "99.7%", "99.99%": a confidence level with the digits it needs (at most three).
    public static func percent(_ confidence: Double) -> String {
        let value = confidence * 100
        for digits in 0...3 {
            let text = String(format: "%.\(digits)f", value)
            if abs((Double(text) ?? 0) - value) < 5e-7 * 100 || digits == 3 { return text + "%" }
        }
        return String(format: "%.3f%%", value)
    }

    static func format(_ p: Double) -> String { p < 0.0001 ? String(format: "%.1e", p) : String(format: "%.4f", p) }
}
