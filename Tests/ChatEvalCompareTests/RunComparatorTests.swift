import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalCompare

/// Builds run records turn by turn for comparison tests.
struct RecordBuilder {
    var record: RunRecord

    init(
        runId: String = "r", commit: String = String(repeating: "a", count: 40), cpu: String = "cpu", modelSha: String = "m",
        threads: Int = 2, sources: [String: SettingSource]? = nil
    ) {
        let git = GitSnapshot(
            commit: commit, shortCommit: String(commit.prefix(7)), branch: "main", isDetached: false, isUnborn: false,
            modifiedCount: 0, untrackedCount: 0, commitTime: nil, commitTimeZoneOffsetMinutes: nil, subject: "s",
            describe: nil, isShallow: false, workdir: "/r")
        let runtime = RuntimeIdentity(
            engine: "llama.cpp", build: "b1", model: ModelIdentity(path: "/m.gguf", fileBytes: 1, description: "model"),
            chatTemplate: "embedded", chatTemplateSource: "model", chatTemplateHash: "h", contextSize: 4096, batchSize: 512,
            threads: threads)
        record = RunRecord(
            runId: runId, startedAt: Date(timeIntervalSince1970: 0), command: [], git: git,
            machine: MachineInfo(
                hostname: "h", cpuModel: cpu, logicalCores: 2, memoryBytes: 1, operatingSystem: "", kernel: "", architecture: "x86_64"),
            runtime: runtime, modelSha256: modelSha,
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0, sources: sources))
    }

    /// Adds one replay of `conversation` in `suite` whose turns have these TTFTs, answers and check outcomes.
    mutating func replay(
        suite: String = "s", conversation: String = "c", repetition: Int, ttft: [Double],
        answers: [String]? = nil, checks: [[Bool]] = [], reuse: [Int]? = nil, reusable: Int? = nil, failedTurn: Int? = nil,
        load: Double? = nil
    ) {
        let turns = ttft.enumerated().map { index, value -> TurnRecord in
            if index == failedTurn {
                return TurnRecord(
                    ReplayedTurn(
                        index: index, user: "u", messagesSent: 2, status: .failed,
                        failure: RuntimeFailure(.contextOverflow, "the prompt does not fit")))
            }
            let metrics = TurnMetrics(
                promptTokens: 100, reusedTokens: reuse?[index] ?? 50, generatedTokens: 8, timeToFirstToken: value, prefillTime: value / 2,
                decodeTime: 0.1, totalTime: value + 0.1, interTokenLatencies: Array(repeating: 0.0143, count: 7),
                stopReason: .endOfGeneration,
                peakResidentBytes: 200_000_000, reusableTokens: reusable)
            let verdicts =
                index < checks.count
                ? checks[index].map {
                    Verdict(check: "icontains", passed: $0, detail: $0 ? "found \"Lyon\"" : "expected \"Lyon\"; not found")
                }
                : nil
            return TurnRecord(
                ReplayedTurn(
                    index: index, user: "u", messagesSent: 2, status: .answered, answer: answers?[index] ?? "answer \(index)",
                    metrics: metrics), checks: verdicts)
        }
        var replay = ConversationRecord(
            id: conversation, repetition: repetition, warmup: false, systemPrompt: nil, options: GenerationOptions(), turns: turns)
        replay.load = load.map { ReplayLoad(otherCores: $0, seconds: 1) }
        append(replay, suite: suite)
    }

    /// Adds `replay` to `suite` (created when new), counting its repetition.
    mutating func append(_ replay: ConversationRecord, suite: String) {
        if let existing = record.suites.firstIndex(where: { $0.name == suite }) {
            record.suites[existing].conversations.append(replay)
        } else {
            record.suites.append(SuiteRecord(name: suite, path: "\(suite).yaml", conversations: [replay]))
        }
        record.settings.repetitions = max(record.settings.repetitions, replay.repetition)
    }
}

@Suite struct RunComparatorTests {
    private func compare(_ base: RecordBuilder, _ head: RecordBuilder, settings: ComparisonSettings = .default) -> Comparison {
        RunComparator.compare(
            base: ComparedRuns(runs: [base.record], sources: ["base.json"]),
            head: ComparedRuns(runs: [head.record], sources: ["head.json"]), settings: settings)
    }

    /// `repetitions` replays of a 4-turn conversation with TTFTs around `level` (deterministic jitter).
    private func runs(level: Double, factor: Double = 1, repetitions: Int = 10, checks: [[Bool]] = [], reuse: [Int]? = nil, seed: UInt64)
        -> RecordBuilder
    {
        var random = SeededRandom(seed: seed)
        var builder = RecordBuilder()
        for repetition in 1...repetitions {
            let ttft = (0..<4).map { turn in level * Double(turn + 1) * factor * (1 + 0.03 * random.normal()) }
            builder.replay(repetition: repetition, ttft: ttft, checks: checks, reuse: reuse)
        }
        return builder
    }

    private func change(_ comparison: Comparison, _ metric: Metric) throws -> MetricChange {
        try #require(comparison.suites.first?.metrics.first { $0.metric == metric })
    }

    @Test func aSlowerHeadIsARegressionWithItsInterval() throws {
        let comparison = compare(runs(level: 0.1, seed: 1), runs(level: 0.1, factor: 1.2, seed: 2))
        let ttft = try change(comparison, .timeToFirstToken)
        #expect(ttft.verdict == .regression)
        let estimate = try #require(ttft.change)
        #expect(abs(estimate - 0.2) < 0.03)
        // The interval is finite and excludes "no change" (it need not hold the truth: a 95%
        // interval misses it one time in twenty).
        let lower = try #require(ttft.changeLower), upper = try #require(ttft.changeUpper)
        #expect(0 < lower && lower < estimate && estimate < upper && upper.isFinite)
        #expect(comparison.hasRegression)
        // Replays are the units: ten per side, not forty turns.
        #expect(ttft.baseCount == 10 && ttft.headCount == 10)
        // Per-turn detail: every turn, each compared with itself.
        #expect(comparison.suites[0].turns.map(\.turn) == [1, 2, 3, 4])
    }

    @Test func theSameBuildTwiceIsUnchanged() throws {
        let comparison = compare(runs(level: 0.1, seed: 3), runs(level: 0.1, seed: 4))
        #expect(try change(comparison, .timeToFirstToken).verdict == .unchanged)
        #expect(!comparison.hasRegression)
        // Values that do not vary at all: every difference is 0 and the interval, by inversion, too.
        let memory = try change(comparison, .peakMemory)
        #expect(memory.verdict == .unchanged && memory.change == 0)
    }

    // MARK: Defect 1 — single values are not exact, and a replay's turns are one unit

    /// The issue's A/A at one repetition: two runs of the same commit, head's one replay of an
    /// 8-turn conversation 70% slower on every turn (the machine was busy). Before, every stratum
    /// holding one value per side was "exact" and the threshold alone decided: a regression with
    /// the interval [−100%, +∞].
    @Test func oneRepetitionOfASlowReplayIsNotARegression() throws {
        var base = RecordBuilder(), head = RecordBuilder()
        let turns = (0..<8).map { 0.1 + 0.02 * Double($0) }
        base.replay(repetition: 1, ttft: turns)
        head.replay(repetition: 1, ttft: turns.map { $0 * 1.7 })
        let comparison = compare(base, head)
        #expect(!comparison.hasRegression)
        let ttft = try change(comparison, .timeToFirstToken)
        #expect(ttft.verdict == .underpowered)
        // One replay per side: half of the two arrangements are at least as extreme.
        #expect((ttft.adjustedPValue ?? 0) >= 0.5)
        #expect(ttft.changeLower == -1 && ttft.changeUpper == .infinity)
        #expect(ttft.reason.contains("no arrangement"))
        #expect(ComparisonReport_headline(comparison).hasPrefix("No regression."))
    }

    /// Two replays per side, head's both 20% slower on all eight turns. Tested turn by turn the
    /// eight turns look like eight independent witnesses (p ≈ 10⁻⁵); they are two replays, which
    /// can fall that way by chance one time in six.
    @Test func twoRepetitionsOfSlowReplaysAreNotARegression() throws {
        var base = RecordBuilder(), head = RecordBuilder()
        var random = SeededRandom(seed: 5)
        for repetition in 1...2 {
            base.replay(repetition: repetition, ttft: (0..<8).map { _ in 0.1 * (1 + 0.01 * random.normal()) })
            head.replay(repetition: repetition, ttft: (0..<8).map { _ in 0.12 * (1 + 0.01 * random.normal()) })
        }
        let ttft = try change(compare(base, head), .timeToFirstToken)
        #expect(ttft.verdict == .underpowered)
        #expect(abs((ttft.minimumPValue ?? 0) - 1.0 / 3) < 1e-12)
        // The per-turn detail still shows each turn, never gating.
        #expect(compare(base, head).suites[0].turns.count == 8)
    }

    /// One replay per side of eight one-turn conversations is a sign test across them: at the
    /// edge, 8 of 8 slower is p = 2/256 two-sided, 1/256 one-sided — the family asks "worse?" —
    /// significant at 1%; 7 of 8 (one-sided 9/256 = 3.5%) is not.
    @Test func oneRepetitionAcrossConversationsIsASignTest() throws {
        var settings = ComparisonSettings.default
        settings.metrics = [.timeToFirstToken]
        func pair(slower: Int) -> (RecordBuilder, RecordBuilder) {
            var base = RecordBuilder(), head = RecordBuilder()
            for index in 0..<8 {
                base.replay(conversation: "q\(index)", repetition: 1, ttft: [0.1 + 0.01 * Double(index)])
                head.replay(conversation: "q\(index)", repetition: 1, ttft: [(0.1 + 0.01 * Double(index)) * (index < slower ? 1.3 : 0.97)])
            }
            return (base, head)
        }
        let (base8, head8) = pair(slower: 8)
        let all = try change(compare(base8, head8, settings: settings), .timeToFirstToken)
        #expect(abs((all.pValue ?? 1) - 0.0078125) < 1e-12)
        #expect(abs((all.adjustedPValue ?? 1) - 1.0 / 256) < 1e-12)
        #expect(all.verdict == .regression)
        let (base7, head7) = pair(slower: 7)
        let seven = try change(compare(base7, head7, settings: settings), .timeToFirstToken)
        #expect(abs((seven.pValue ?? 0) - 0.0703125) < 1e-12)
        #expect(abs((seven.adjustedPValue ?? 0) - 9.0 / 256) < 1e-12)
        #expect(seven.verdict == .underpowered)
        // The default family — nine metrics at 1% — gates too: TTFT, prefill and total time move with
        // the same replays, so relabelling them jointly costs no more than one metric (Holm over the
        // nine, before, could not reach 1% with one replay per side).
        let family = compare(base8, head8)
        #expect(family.hasRegression)
        #expect(try abs((change(family, .timeToFirstToken).adjustedPValue ?? 1) - 1.0 / 256) < 1e-12)
        #expect(family.family.exact == true && family.family.labelings == 256)
    }

    // MARK: Defect 4 — unchanged means the interval lies within the threshold

    @Test func aThresholdCrossedByTheIntervalButNotTheEstimateIsUnderpowered() throws {
        // 40 replays per side with 3.5% noise (the normal quantiles, so the figures are exact), head
        // the same values 4% slower: significant, estimate 4% below the 5% threshold, interval
        // reaching past it. Before: "unchanged, a real change smaller than the threshold".
        var base = RecordBuilder(), head = RecordBuilder()
        let noise = (0..<40).map { 0.035 * RankShift.normalQuantile((Double($0) + 0.5) / 40) }
        for repetition in 1...40 {
            base.replay(repetition: repetition, ttft: [0.2 * exp(noise[repetition - 1])])
            head.replay(repetition: repetition, ttft: [0.2 * 1.04 * exp(noise[(repetition * 7) % 40])])
        }
        var settings = ComparisonSettings.default
        settings.metrics = [.timeToFirstToken]
        let ttft = try change(compare(base, head, settings: settings), .timeToFirstToken)
        let estimate = try #require(ttft.change), upper = try #require(ttft.changeUpper), threshold = try #require(ttft.threshold)
        try #require(
            ttft.adjustedPValue.map { $0 <= 0.01 } == true,
            """
            the construction must be significant: p \(String(describing: ttft.adjustedPValue)), \(String(describing: ttft.change)) \
            [\(String(describing: ttft.changeLower)), \(String(describing: ttft.changeUpper))]
            """
        )
        try #require(estimate < threshold && upper > threshold, "the construction must straddle the threshold: \(estimate) [.., \(upper)]")
        #expect(ttft.verdict == .underpowered)
        #expect(ttft.reason.contains("smaller than the threshold"))
    }

    @Test func anIntervalHoldingNoChangeIsNeverARegression() throws {
        // A p-value that says significant beside an interval that holds 0 (the two come from
        // different approximations at the edges): the interval wins.
        var shift = try #require(RankShift(strata: [([1, 2, 3], [4, 5, 6])]))
        shift.pValue = 1e-9
        shift.estimate = log(1.2)
        shift.lower = -0.01
        shift.upper = log(1.4)
        let tested = RunComparator.TestedChange(
            metric: .timeToFirstToken, baseValues: [1, 2, 3], headValues: [1.2, 2.4, 3.6],
            shift: shift, spread: 0.1, repetitions: 3)
        let decided = RunComparator.verdict(
            for: tested, decision: MultipleTesting.Decision(adjustedPValue: 1e-9, significant: true), familySize: 1,
            level: RunComparator.Level(settings: .default, share: 1), settings: .default)
        #expect(decided.verdict == .underpowered)
        #expect(decided.reason.contains("holds no change"))
    }

    /// Issue 29, item 10: an early look spends a sliver of α; TTFT's 95% interval lying wholly
    /// past the threshold was "underpowered — the 95% interval reaches past the threshold".
    @Test func aClearChangeNotConfirmedAtThisLookSaysSo() throws {
        var shift = try #require(RankShift(strata: [([1, 2, 3], [4, 5, 6])]))
        shift.estimate = log(1.36)
        shift.lower = log(1.20)
        shift.upper = log(1.47)
        let tested = RunComparator.TestedChange(
            metric: .timeToFirstToken, baseValues: [1, 2, 3], headValues: [1.36, 2.72, 4.08], shift: shift, spread: 0.1, repetitions: 3)
        let level = RunComparator.Level(settings: .default, share: 0.011, intervalShare: 1)
        let decided = RunComparator.verdict(
            for: tested, decision: MultipleTesting.Decision(adjustedPValue: 0.002, significant: 0.002 <= level.alpha), familySize: 9,
            level: level, settings: .default)
        #expect(decided.verdict == .underpowered)
        #expect(decided.reason.contains("a clear change at 95%, not confirmed at this look's level"), "\(decided.reason)")
    }

    @Test func aWorseEndWithinTheThresholdIsNotWorse() throws {
        // Head 6% faster, noisy: the interval reaches past −5% (could be an improvement) but not past +5%.
        var random = SeededRandom(seed: 8)
        var base = RecordBuilder(), head = RecordBuilder()
        for repetition in 1...12 {
            base.replay(repetition: repetition, ttft: [0.2 * exp(0.05 * random.normal())])
            head.replay(repetition: repetition, ttft: [0.2 * 0.98 * exp(0.05 * random.normal())])
        }
        var settings = ComparisonSettings.default
        settings.metrics = [.timeToFirstToken]
        let ttft = try change(compare(base, head, settings: settings), .timeToFirstToken)
        try #require((ttft.changeUpper ?? 1) < 0.05 && (ttft.changeLower ?? 0) < -0.05, "construction: \(ttft)")
        #expect(ttft.verdict == .notWorse)
    }

    // MARK: Defect 2 — the forecast includes power

    @Test func fewRepetitionsAreUnderpoweredAndSayHowManyWould() throws {
        var base = RecordBuilder(), head = RecordBuilder()
        base.replay(repetition: 1, ttft: [0.10, 0.20])
        base.replay(repetition: 2, ttft: [0.12, 0.19])
        head.replay(repetition: 1, ttft: [0.13, 0.24])
        head.replay(repetition: 2, ttft: [0.11, 0.26])
        let ttft = try change(compare(base, head), .timeToFirstToken)
        #expect(ttft.verdict == .underpowered)
        #expect((ttft.repetitionsNeeded ?? 0) > 2)
    }

    // MARK: Defect 5 — pass counts gate

    @Test func aCheckPassingNineInTenThenNeverIsARegression() throws {
        // Before: mixed on base, so "flaky" and never a regression.
        var base = RecordBuilder(), head = RecordBuilder()
        for repetition in 1...10 {
            base.replay(repetition: repetition, ttft: [0.1], checks: [[repetition != 4]])
            head.replay(repetition: repetition, ttft: [0.1], checks: [[false]])
        }
        let comparison = compare(base, head)
        let check = try #require(comparison.quality.regressions.first)
        #expect(check.basePassed == 9 && check.headPassed == 0 && check.verdict == .regression)
        #expect(abs((check.pValue ?? 1) - 0.00011907597046915932) < 1e-12)
        #expect(comparison.hasRegression)
        #expect(comparison.quality.flaky.isEmpty)
    }

    /// A regression confirmed at an earlier look of a paired run stands at later looks: the
    /// metric keeps this look's estimate with a reason naming the look, a check moves out of
    /// "undecided" into the regressions. Before, a later look's verdict replaced it.
    @Test func aRegressionConfirmedAtAnEarlierLookStands() throws {
        let earlier = compare(
            runs(level: 0.1, checks: [[true], [true]], seed: 7), runs(level: 0.1, factor: 1.5, checks: [[true], [false]], seed: 8))
        #expect(try change(earlier, .timeToFirstToken).verdict == .regression && earlier.quality.regressions.count == 1)
        var later = compare(runs(level: 0.1, repetitions: 1, seed: 9), runs(level: 0.1, repetitions: 1, seed: 10))
        #expect(!later.hasRegression)
        later.keepRegressions(confirmedIn: earlier, look: 2, repetitions: 3)
        let ttft = try change(later, .timeToFirstToken)
        #expect(ttft.verdict == .regression && ttft.reason.contains("confirmed at look 2 (3 repetitions per side)"))
        #expect(try change(later, .decodeTokensPerSecond).verdict != .regression)
        #expect(later.quality.regressions.count == 1 && later.quality.regressions[0].detail?.contains("confirmed at look 2") == true)
        #expect(later.hasRegression)
        // Kept once: applying the same look again adds nothing.
        later.keepRegressions(confirmedIn: earlier, look: 2, repetitions: 3)
        #expect(later.quality.regressions.count == 1)
    }

    /// A regression a head commit expects (`ChatEval-Expect`) is accepted: shown, not failed;
    /// one nothing expects beside it still fails; an expectation nothing matched is kept as not
    /// observed. Before, every regression failed the comparison.
    @Test func aRegressionTheHeadsCommitExpectsIsAcceptedAndOthersStillFail() throws {
        func slower() -> Comparison {
            compare(
                runs(level: 0.1, checks: [[true], [true]], seed: 7), runs(level: 0.1, factor: 1.5, checks: [[true], [false]], seed: 8))
        }
        var comparison = slower()
        #expect(comparison.metricRegressions.map(\.change.metric) == [.timeToFirstToken, .prefillTokensPerSecond, .totalTime])
        #expect(comparison.quality.regressions.count == 1)
        comparison.accept([
            Expectation(commit: "abc1234", suite: "s", subject: "ttft", direction: .worse),
            Expectation(commit: "abc1234", suite: "*", subject: "decode-tps", direction: .worse),
        ])
        let ttft = try change(comparison, .timeToFirstToken)
        #expect(ttft.verdict == .accepted && ttft.reason.contains("as abc1234 expects (ChatEval-Expect: s ttft worse)"))
        #expect(comparison.acceptedMetrics.map(\.change.metric) == [.timeToFirstToken])
        // What nothing expects still fails: the other metrics and the check.
        #expect(comparison.metricRegressions.map(\.change.metric) == [.prefillTokensPerSecond, .totalTime])
        #expect(comparison.hasRegression && comparison.quality.regressions.count == 1)
        #expect(comparison.expectations?.map(\.observed) == [true, false])

        var expected = slower()
        expected.accept(
            ["ttft", "prefill-tps", "total-time", "checks"].map {
                Expectation(commit: "def5678", suite: "*", subject: $0, direction: .worse)
            })
        #expect(!expected.hasRegression)
        #expect(expected.quality.accepted?.count == 1 && expected.quality.regressions.isEmpty)
        #expect(expected.expectations?.allSatisfy { $0.observed == true } == true)
    }

    @Test func aCheckThatAlwaysPassedAndNowAlwaysFailsIsListed() throws {
        let comparison = compare(
            runs(level: 0.1, checks: [[true], [true]], seed: 7), runs(level: 0.1, checks: [[true], [false]], seed: 8))
        let failing = try #require(comparison.quality.regressions.first)
        #expect(comparison.quality.regressions.count == 1)
        #expect(failing.suite == "s" && failing.conversation == "c" && failing.turn == 2 && failing.check == "icontains")
        #expect(failing.basePassed == 10 && failing.headPassed == 0)
        #expect(failing.answerExcerpt == "answer 1")
        #expect(failing.detail?.contains("not found") == true)
        #expect(comparison.hasRegression)
    }

    @Test func oneReplayOfAFailingCheckIsUndecidedNotARegression() {
        // 1 of 1 → 0 of 1: Fisher's test cannot reach any level with these margins.
        var base = RecordBuilder(), head = RecordBuilder()
        base.replay(repetition: 1, ttft: [0.1], checks: [[true]])
        head.replay(repetition: 1, ttft: [0.1], checks: [[false]])
        let comparison = compare(base, head)
        #expect(comparison.quality.regressions.isEmpty)
        #expect(comparison.quality.undecided.count == 1)
        #expect(!comparison.hasRegression && !comparison.isDecided)
    }

    @Test func aCheckPassingAsOftenOnBothSidesIsFlakyNotARegression() throws {
        var base = RecordBuilder(), head = RecordBuilder()
        for repetition in 1...10 {
            base.replay(repetition: repetition, ttft: [0.1], checks: [[repetition % 2 == 0]])
            head.replay(repetition: repetition, ttft: [0.1], checks: [[repetition % 2 == 1]])
        }
        let comparison = compare(base, head)
        #expect(comparison.quality.flaky.count == 1 && comparison.quality.flaky[0].verdict == .flaky)
        #expect(!comparison.quality.hasRegression)
    }

    @Test func newlyPassingAndAddedChecksAreReportedNotGated() {
        var base = RecordBuilder(), head = RecordBuilder()
        base.replay(repetition: 1, ttft: [0.1], checks: [[false]])
        head.replay(repetition: 1, ttft: [0.1], checks: [[true, false]])
        let quality = compare(base, head).quality
        #expect(quality.undecided.count == 1 && quality.undecided[0].headPassed == 1)
        #expect(quality.added.count == 1 && quality.added[0].position == 2)
        #expect(!quality.hasRegression)
    }

    @Test func aTurnThatNowFailsIsARegressionOnceReplaysShowIt() {
        func pair(_ repetitions: Int) -> Comparison {
            var base = RecordBuilder(), head = RecordBuilder()
            for repetition in 1...repetitions {
                base.replay(repetition: repetition, ttft: [0.1, 0.2])
                head.replay(repetition: repetition, ttft: [0.1, 0.2], failedTurn: 1)
            }
            return compare(base, head)
        }
        let once = pair(1)
        #expect(once.quality.turnsUndecided.map(\.turn) == [2] && !once.hasRegression)
        let ten = pair(10)
        #expect(ten.quality.turnRegressions.map(\.turn) == [2])
        #expect(ten.quality.turnRegressions.first?.headOutcome.hasPrefix("context_overflow") == true)
        #expect(ten.hasRegression)
    }

    @Test func aConstantDifferenceOverReplaysIsARegression() throws {
        // Greedy replays reuse the same tokens every time: a drop from 90 to 60 reused tokens in all
        // ten replays of each side cannot be chance (p = 2/184756), though no value varies.
        let comparison = compare(runs(level: 0.1, reuse: [90, 90, 90, 90], seed: 5), runs(level: 0.1, reuse: [60, 60, 60, 60], seed: 6))
        let reuse = try change(comparison, .reuseRatio)
        #expect(reuse.verdict == .regression)
        #expect(reuse.scale == .absolute)
        #expect(abs((reuse.change ?? 0) + 0.3) < 1e-9)
        // The same drop in one replay per side proves nothing.
        let once = compare(
            runs(level: 0.1, repetitions: 1, reuse: [90, 90, 90, 90], seed: 5),
            runs(level: 0.1, repetitions: 1, reuse: [60, 60, 60, 60], seed: 6))
        #expect(try change(once, .reuseRatio).verdict == .underpowered)
    }

    // MARK: A busy machine

    @Test func replaysMeasuredWhileTheMachineWasBusyAreLeftOutAndCounted() throws {
        var base = RecordBuilder(), head = RecordBuilder()
        var random = SeededRandom(seed: 9)
        for repetition in 1...10 {
            base.replay(repetition: repetition, ttft: [0.1 * exp(0.02 * random.normal())], load: 0.01)
            // Three head replays ran beside a compile: 30 times slower, and their load says why.
            let busy = repetition <= 3
            head.replay(repetition: repetition, ttft: [0.1 * (busy ? 30 : 1) * exp(0.02 * random.normal())], load: busy ? 1.6 : 0.02)
        }
        let comparison = compare(base, head)
        #expect(comparison.load.head.leftOut == 3 && comparison.load.base.leftOut == 0)
        #expect(try change(comparison, .timeToFirstToken).headCount == 7)
        #expect(!comparison.hasRegression)
        // Every head replay busy: the sides were measured under different load, and nothing is
        // compared — which is not "decided": a paired run keeps going, hoping for quiet.
        var allBusy = RecordBuilder()
        for repetition in 1...10 { allBusy.replay(repetition: repetition, ttft: [3.0], load: 1.5) }
        let unfair = compare(base, allBusy)
        #expect(unfair.load.head.leftOut == 10)
        #expect(try change(unfair, .timeToFirstToken).verdict == .notMeasured)
        #expect(try change(unfair, .timeToFirstToken).reason.contains("10 replays left out"))
        #expect(!unfair.isDecided && !unfair.hasRegression)
        // With the screening off, every replay counts: 30 times slower is a regression.
        var off = ComparisonSettings.default
        off.busyThreshold = nil
        let unscreened = compare(base, allBusy, settings: off)
        #expect(unscreened.load.head.leftOut == 0 && unscreened.hasRegression)
        // A load between the threshold's sides on average is reported.
        var moderate = RecordBuilder()
        for repetition in 1...10 { moderate.replay(repetition: repetition, ttft: [0.1], load: 0.2) }
        #expect(compare(base, moderate).load.warning == nil)
        var noisy = RecordBuilder()
        for repetition in 1...10 { noisy.replay(repetition: repetition, ttft: [0.1], load: repetition % 2 == 0 ? 0.24 : 0.6) }
        let warned = compare(base, noisy)
        #expect(warned.load.warning != nil)
        #expect(warned.load.head.leftOut == 5)
    }

    /// Eight one-turn questions, ten repetitions, TTFT around 0.1 s; a replay of repetition
    /// `busy(repetition)` ran beside a compile (`load` cores) and `slower` times slower for it.
    private func questions(
        runId: String, pairedWith: String?, seed: UInt64, busy: (Int) -> Bool = { _ in false }, load: Double = 1.0, slower: Double = 1
    ) -> RecordBuilder {
        var random = SeededRandom(seed: seed)
        var builder = RecordBuilder(runId: runId)
        builder.record.pairedRunId = pairedWith
        builder.record.role = pairedWith == nil ? nil : .head
        for repetition in 1...10 {
            for question in 1...8 {
                let disturbed = busy(repetition)
                builder.replay(
                    conversation: "q\(question)", repetition: repetition,
                    ttft: [0.1 * (disturbed ? slower : 1) * exp(0.03 * random.normal())],
                    load: disturbed ? load : 0.02)
            }
        }
        return builder
    }

    /// Issue 48, item 1: `compare HEAD~3 HEAD~2` took its sides from two different `run --baseline`
    /// jobs (each run names its own job's other run, not this one). Head's job ran beside a
    /// compile from its third repetition on (a steady load both of its arms saw, kept there), and
    /// those replays are 60% slower. Before, a run recorded by a paired job was never screened
    /// when read again — `--busy-threshold` changed nothing — and TTFT was a regression. Runs of
    /// different jobs are separately recorded runs: every replay screened by its own load, the
    /// left-out ones counted, the run-to-run term applied; no timing regression is claimed.
    @Test func runsOfTwoPairedJobsAreScreenedReplayByReplay() throws {
        let base = questions(runId: "job1-head", pairedWith: "job1-base", seed: 41)
        let head = questions(runId: "job2-head", pairedWith: "job2-base", seed: 42, busy: { $0 > 2 }, slower: 1.6)
        func compare(_ settings: ComparisonSettings = .default) -> Comparison {
            RunComparator.compare(
                base: ComparedRuns(runs: [base.record], sources: ["base.json"]),
                head: ComparedRuns(runs: [head.record], sources: ["head.json"]),
                settings: settings, runSpread: .stated)
        }
        let screened = compare()
        #expect(!screened.hasRegression)
        #expect(screened.metricRegressions.isEmpty)
        #expect(screened.load.head.leftOut == 64 && screened.load.base.leftOut == 0)
        #expect(screened.load.screenedAt == ComparisonSettings.defaultBusyThreshold)
        #expect(try change(screened, .timeToFirstToken).headCount == 16)
        // The busy threshold is the reader's to set: off, the disturbed replays count, and their
        // 60% slowdown is past even the separately recorded runs' floor.
        var off = ComparisonSettings.default
        off.busyThreshold = nil
        let unscreened = compare(off)
        #expect(unscreened.load.head.leftOut == 0 && unscreened.load.screenedAt == nil)
        #expect(try change(unscreened, .timeToFirstToken).verdict == .regression)
    }

    /// The two runs of ONE paired job keep the pairing's screen: a steady load both arms saw is
    /// noise the pairing cancels, kept and compared; only their own left-out marks count.
    @Test func theTwoRunsOfOnePairedJobKeepThePairsScreen() throws {
        let base = questions(runId: "b", pairedWith: "h", seed: 43, busy: { _ in true })
        var head = questions(runId: "h", pairedWith: "b", seed: 44, busy: { _ in true })
        head.record.suites[0].conversations[0].leftOut = "other processes held the cores; measured again"
        let comparison = RunComparator.compare(
            base: ComparedRuns(runs: [base.record], sources: ["base.json"]),
            head: ComparedRuns(runs: [head.record], sources: ["head.json"]),
            settings: .default)
        #expect(comparison.load.base.leftOut == 0 && comparison.load.screenedAt == nil)
        #expect(comparison.load.head.leftOut == 1)
        #expect(try change(comparison, .timeToFirstToken).baseCount == 80)
        #expect(ComparedRuns.onePairedJob(base: [base.record], head: [head.record]))
        // One side's run of that job against a run of another: not one paired job.
        let other = questions(runId: "x", pairedWith: "y", seed: 45)
        #expect(!ComparedRuns.onePairedJob(base: [base.record], head: [other.record]))
        #expect(!ComparedRuns.onePairedJob(base: [base.record], head: [base.record]))
    }

    // MARK: Unchanged

    @Test func anotherMachineIsAMismatch() {
        var base = RecordBuilder(cpu: "AMD EPYC"), head = RecordBuilder(cpu: "Intel Xeon")
        base.replay(repetition: 1, ttft: [0.1])
        head.replay(repetition: 1, ttft: [0.1])
        let comparison = compare(base, head)
        #expect(comparison.mismatches.map(\.field) == ["machine"])
    }

    @Test func aModelTheCommitsChoseIsTheirChangeNotAMismatch() {
        let committed: [String: SettingSource] = ["model": .projectFile]
        var base = RecordBuilder(modelSha: "m1", sources: committed), head = RecordBuilder(modelSha: "m2", sources: committed)
        base.replay(repetition: 1, ttft: [0.1])
        head.replay(repetition: 1, ttft: [0.1])
        let comparison = compare(base, head)
        #expect(comparison.differences.map(\.field) == ["model sha256"])
        #expect(comparison.mismatches.isEmpty)

        // The same difference from the command line is a mismatch.
        var other = RecordBuilder(modelSha: "m2", sources: ["model": .commandLine])
        other.replay(repetition: 1, ttft: [0.1])
        #expect(compare(base, other).mismatches.map(\.field) == ["model sha256"])
    }

    /// A sliding-window model's cache setting is compared (it changes what a turn can reuse);
    /// a model without a window has nothing to compare, and an older record without the field
    /// cached in full.
    @Test func aSlidingWindowCacheSettingIsComparedForWindowedModelsOnly() {
        var base = RecordBuilder(), head = RecordBuilder()
        base.replay(repetition: 1, ttft: [0.1])
        head.replay(repetition: 1, ttft: [0.1])
        head.record.runtime.slidingWindowCache = .window
        #expect(compare(base, head).differences.isEmpty, "no window: the setting does nothing")
        base.record.runtime.slidingWindow = 512
        head.record.runtime.slidingWindow = 512
        let comparison = compare(base, head)
        #expect(comparison.differences.map(\.field) == ["sliding-window cache"])
        #expect(comparison.differences.first?.base == "full" && comparison.differences.first?.head == "window")
        #expect(comparison.mismatches.map(\.field) == ["sliding-window cache"], "not from both commits' project files")
        base.record.runtime.slidingWindowCache = .full
        head.record.runtime.slidingWindowCache = .full
        #expect(compare(base, head).differences.isEmpty, "nil and full are the same setting")
    }

    // MARK: Issue 29, item 3 — a metric without a threshold is not gated, and reuse efficiency has one

    /// Ten replays of a 4-turn conversation reusing `reused` of 100 reusable tokens on every turn.
    private func reusing(_ reused: Int, seed: UInt64) -> RecordBuilder {
        var random = SeededRandom(seed: seed)
        var builder = RecordBuilder()
        for repetition in 1...10 {
            let ttft = (0..<4).map { turn in 0.1 * Double(turn + 1) * (1 + 0.03 * random.normal()) }
            builder.replay(repetition: repetition, ttft: ttft, reuse: Array(repeating: reused, count: 4), reusable: 100)
        }
        return builder
    }

    /// Efficiency 1.0 → 0.5 was "unchanged" in every preset: it had no threshold.
    @Test(arguments: ComparisonSettings.presets)
    func reuseEfficiencyHalvedIsARegressionInEveryPreset(settings: ComparisonSettings) throws {
        #expect(settings.thresholds[.reuseEfficiency] != nil)
        let comparison = compare(reusing(100, seed: 1), reusing(50, seed: 2), settings: settings)
        let efficiency = try change(comparison, .reuseEfficiency)
        #expect(efficiency.verdict == .regression, "\(efficiency.reason)")
        #expect(comparison.hasRegression)
        let same = try change(compare(reusing(100, seed: 1), reusing(100, seed: 2), settings: settings), .reuseEfficiency)
        #expect(same.verdict == .unchanged)
    }

    /// A metric the settings give no threshold is shown, "not gated" in JSON and in words, never
    /// "unchanged", and stays out of the family.
    @Test func aMetricWithoutAThresholdIsNotGated() throws {
        var settings = ComparisonSettings.default
        settings.thresholds[.reuseEfficiency] = nil
        let gated = compare(reusing(100, seed: 1), reusing(50, seed: 2))
        let comparison = compare(reusing(100, seed: 1), reusing(50, seed: 2), settings: settings)
        let efficiency = try change(comparison, .reuseEfficiency)
        #expect(efficiency.verdict.rawValue == "not_gated" && efficiency.verdict != .unchanged)
        #expect(efficiency.change == -0.5 && efficiency.reason.contains("not gated"))
        #expect(!comparison.metricRegressions.contains { $0.change.metric == .reuseEfficiency })
        #expect(comparison.family.tests == gated.family.tests - 1)
        let text = String(decoding: try ResultWriter.makeEncoder(pretty: false).encode(comparison), as: UTF8.self)
        #expect(text.contains("\"verdict\":\"not_gated\""))
    }

    @Test func theComparisonEncodesWithInfiniteIntervalEndsAsStrings() throws {
        var base = RecordBuilder(), head = RecordBuilder()
        base.replay(repetition: 1, ttft: [0.1])
        head.replay(repetition: 1, ttft: [0.2])
        let data = try ResultWriter.makeEncoder(pretty: false).encode(compare(base, head))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"schema_version\":2"))
        #expect(text.contains("\"inf\""))
        let decoded = try ResultWriter.makeDecoder().decode(Comparison.self, from: data)
        #expect(decoded.suites.count == 1)
    }

    @Test func aLookSpendsItsShareOfTheRate() throws {
        // The same data decided at a sequential look that spends a tenth of α and of the interval's non-coverage.
        let look = ComparisonLook(index: 1, design: SequentialDesign(looks: [2, 5, 10]), share: 0.1)
        let comparison = RunComparator.compare(
            base: ComparedRuns(runs: [runs(level: 0.1, seed: 1).record], sources: []),
            head: ComparedRuns(runs: [runs(level: 0.1, factor: 1.2, seed: 2).record], sources: []),
            settings: .default, look: look)
        #expect(comparison.design.look == 2 && comparison.design.looks == [2, 5, 10])
        #expect(abs(comparison.design.familyErrorRate - 0.001) < 1e-15)
        #expect(abs(comparison.design.confidence - 0.995) < 1e-12)
    }
}

/// The headline the terminal report starts with, without importing the report module here.
private func ComparisonReport_headline(_ comparison: Comparison) -> String {
    comparison.hasRegression ? "REGRESSION" : "No regression."
}

/// reports/schema/comparison.schema.json documents every key `compare --format json` writes.
@Suite struct ComparisonSchemaTests {
    static let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("reports/schema/comparison.schema.json")

    @Test func everyKeyTheEncoderWritesIsInTheSchema() throws {
        // A comparison with every part filled: changes of every kind, check changes, a mismatch.
        var base = RecordBuilder(cpu: "a"), head = RecordBuilder(cpu: "b")
        for repetition in 1...4 {
            base.replay(repetition: repetition, ttft: [0.1, 0.2], checks: [[true, repetition % 2 == 0, false], [repetition % 2 == 0]])
            head.replay(repetition: repetition, ttft: [0.1, 0.3], checks: [[false, true, true, true]], failedTurn: 1)
        }
        var comparison = RunComparator.compare(
            base: ComparedRuns(runs: [base.record], sources: ["b.json"]),
            head: ComparedRuns(runs: [head.record], sources: ["h.json"]), settings: .default)
        comparison.sequential = SequentialOutcome(stop: .decided, repetitions: 4, rounds: 2, seconds: 3, looks: ["look 1"])
        comparison.calibration = GateAudit(
            machine: "cpu", modelSha256: "m", model: "m.gguf", measuredAt: Date(timeIntervalSince1970: 0), commit: "c", comparisons: 2,
            falseAlarms: 0,
            decided: 1, looks: [2, 4], repetitionsUsed: [2, 4], familyErrorRate: 0.01, preset: "default",
            metrics: [
                .init(suite: "s", metric: .timeToFirstToken, scale: .relative, spread: 0.1, strata: 1, detectable: 0.2, falseAlarms: 0)
            ],
            replaysLeftOut: 0, replaysMeasured: 8)
        comparison.load.warning = "x"
        comparison.headGatesFailed = ["s: min_pass_rate ≥ 1, found 0.5 (1 of 2 checks)"]
        comparison.undecidedFails = true
        comparison.missed = MissedChange(suite: "s", metric: .timeToFirstToken, change: 0.1, missRate: 0.5, repetitions: 4)
        var ledger = LedgerComparator.compare(base: [base.record], head: [head.record])
        ledger.notGated = "x"
        comparison.ledger = ledger
        var expectation = Expectation(
            commit: "a", suite: "s", subject: "checks", direction: .worse, check: "*", bound: 3, otherCommitsChangingInputs: ["b"])
        expectation.observed = true
        expectation.exceeded = ["x"]
        comparison.expectations = [expectation]
        comparison.memoryContext = MemoryContext(base: "alone", head: "model 1 of 2", compared: false)
        var hpt = HPTVerdict(
            suite: "s", metric: .timeToFirstToken, conversations: 2, slower: 1, faster: 0, probabilitySlower: 0.75, slowerAtLeast: 1.1,
            fasterAtLeast: 1.1)
        comparison.suites[0].hpt = hpt
        hpt.suite = nil
        comparison.hpt = hpt
        #expect(!comparison.quality.flaky.isEmpty && !comparison.quality.undecided.isEmpty && !comparison.quality.added.isEmpty)
        #expect(!comparison.quality.turnsUndecided.isEmpty && !comparison.differences.isEmpty)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
        let document = try JSONSerialization.jsonObject(with: try ResultWriter.makeEncoder(pretty: false).encode(comparison))
        let undocumented = SchemaCoverage.undocumentedKeys(in: document, schema: schema, root: schema)
        #expect(undocumented.isEmpty, "keys missing from comparison.schema.json: \(undocumented)")
    }

    /// The schema names every metric a comparison can write (`settings.metrics`, thresholds).
    @Test func theSchemaNamesEveryMetric() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let names = try #require((definitions["metricName"] as? [String: Any])?["enum"] as? [String])
        #expect(names == Metric.names)
    }
}

/// The base and head a comparison shows beside its change: they must reconcile with it.
@Suite struct TypicalTurnTests {
    /// A slow first turn (prefill) and fast later ones: pooled medians said 53 ms → 53 ms beside
    /// "+5.4%", or 265 ms → 1.85 s beside "+80.8%". The typical turns move as the estimate does.
    @Test func baseAndHeadReconcileWithTheChange() throws {
        var base = RecordBuilder(runId: "b"), head = RecordBuilder(runId: "h", commit: String(repeating: "b", count: 40))
        // Turn 1 at 1 s, turns 2-5 at 50 ms, 10 replays; head is 10% slower on every turn.
        let jitter = [0.99, 1.01, 1.0, 0.98, 1.02, 1.0, 0.995, 1.005, 0.985, 1.015]
        for repetition in 1...10 {
            let levels = [1.0, 0.05, 0.05, 0.05, 0.05].map { $0 * jitter[repetition - 1] }
            base.replay(repetition: repetition, ttft: levels)
            head.replay(repetition: repetition, ttft: levels.map { $0 * 1.1 })
        }
        let comparison = RunComparator.compare(
            base: ComparedRuns(runs: [base.record], sources: ["b"]), head: ComparedRuns(runs: [head.record], sources: ["h"]),
            settings: .default)
        let ttft = try #require(comparison.suites.first?.metrics.first(where: { $0.metric == .timeToFirstToken }))
        let change = try #require(ttft.change)
        let (baseLevel, headLevel) = (try #require(ttft.baseLevel), try #require(ttft.headLevel))
        #expect(abs(change - 0.10) < 0.01)
        #expect(abs(headLevel / baseLevel - 1 - change) < 0.01, "\(baseLevel) → \(headLevel) beside \(change)")
        // The pooled medians are the fast turns' (50 ms → 55 ms here), kept in the file as before.
        #expect(ttft.baseMedian.map { abs($0 - 0.05) < 0.002 } == true)
        // The typical turn: geometric mean of 1 s and four 50 ms turns ≈ 91 ms.
        #expect(abs(baseLevel - exp((log(1.0) + 4 * log(0.05)) / 5)) < 0.002)
    }

    @Test func turnsMeasuredOnOneSideOnlyAreLeftOutAndNothingSharedIsNil() {
        let base = [ReplaySample(conversation: "a", values: [0: 1, 1: 2]), ReplaySample(conversation: "only-base", values: [0: 100])]
        let head = [ReplaySample(conversation: "a", values: [0: 2, 1: 4])]
        let typical = ReplaySample.typicalTurn(base: base, head: head, onLogScale: true)
        #expect(typical.map { abs($0.base - 2.0.squareRoot()) < 1e-9 && abs($0.head - 8.0.squareRoot()) < 1e-9 } == true)
        #expect(ReplaySample.typicalTurn(base: base, head: [], onLogScale: true) == nil)
        // Ratios (can be 0) are averaged as they are; non-positive values cannot go on a log scale.
        let ratios = ReplaySample.typicalTurn(
            base: [ReplaySample(conversation: "a", values: [0: 0, 1: 0.5])],
            head: [ReplaySample(conversation: "a", values: [0: 0.5, 1: 1])],
            onLogScale: false)
        #expect(ratios.map { $0.base == 0.25 && $0.head == 0.75 } == true)
    }
}

/// The variant matrix: columns are models × variants, each compared with the first; a cell is
/// marked only where the test decides, at the edges too (one replay per side, ties).
@Suite struct VariantMatrixTests {
    /// One record whose conversation "c" ran under variants "a" and "b", `repetitions` times;
    /// `b` gets `bPasses` for its check and TTFTs scaled by `bSlower`.
    private func record(repetitions: Int, bPasses: Bool, bSlower: Double, jitter: Bool = true) -> RunRecord {
        var builder = RecordBuilder()
        for repetition in 1...repetitions {
            let noise = jitter ? 1 + 0.01 * Double((repetition * 7) % 5) : 1
            builder.replay(conversation: "c@a", repetition: repetition, ttft: [0.2 * noise, 0.1 * noise], checks: [[true], [true]])
            builder.replay(
                conversation: "c@b", repetition: repetition, ttft: [0.2 * noise * bSlower, 0.1 * noise * bSlower],
                checks: [[bPasses], [true]])
        }
        var record = builder.record
        for index in record.suites[0].conversations.indices {
            let id = record.suites[0].conversations[index].id
            record.suites[0].conversations[index].variant = String(id.split(separator: "@").last ?? "")
        }
        return record
    }

    /// A run of a suite with variants beside one without: the plain suite is left out of the
    /// matrix rather than made a column that shares nothing with the variants'.
    @Test func suitesWithoutVariantsStayOutOfAMatrixOfVariants() throws {
        var mixed = record(repetitions: 4, bPasses: true, bSlower: 1)
        var plain = RecordBuilder()
        for repetition in 1...4 { plain.replay(suite: "plain", conversation: "p", repetition: repetition, ttft: [0.1]) }
        mixed.suites += plain.record.suites
        let matrix = try #require(VariantMatrix.build([mixed], labels: ["m"]))
        #expect(matrix.columns.map(\.label) == ["a", "b"])
        #expect(Set(matrix.rows.map(\.suite)) == ["s"])
        #expect(matrix.rows.allSatisfy { $0.cells.allSatisfy { $0 != nil } })
    }

    @Test func aRealDifferenceIsMarkedInTheColumnThatHasIt() throws {
        let matrix = try #require(VariantMatrix.build([record(repetitions: 10, bPasses: false, bSlower: 1.5)], labels: ["m"]))
        #expect(matrix.columns.map(\.label) == ["a", "b"])
        #expect(matrix.rows.map { "\($0.conversation) \($0.turn)" } == ["c 1", "c 2"])
        let first = try #require(matrix.rows[0].cells[1])
        #expect(first.checksPassed == 0 && first.checksTotal == 10)
        #expect(first.checks == .regression && first.timeToFirstTokenVerdict == .regression)
        #expect(matrix.rows[0].cells[0]?.checks == nil)  // the reference column is never marked
        #expect(matrix.rows[1].cells[1]?.checks == nil)  // turn 2's check passes on both sides
        // Reversed, the same difference is an improvement.
        let faster = try #require(VariantMatrix.build([record(repetitions: 10, bPasses: true, bSlower: 0.6)], labels: ["m"]))
        #expect(faster.rows[0].cells[1]?.timeToFirstTokenVerdict == .improvement)
    }

    /// One replay per side: 1/1 against 0/1 cannot be told from chance, so never ▼, only "?".
    @Test func oneReplayPerSideIsNeverMarkedBetterOrWorse() throws {
        let matrix = try #require(VariantMatrix.build([record(repetitions: 1, bPasses: false, bSlower: 3)], labels: ["m"]))
        let cell = try #require(matrix.rows[0].cells[1])
        #expect(cell.checks == .undecided)
        #expect(cell.timeToFirstTokenVerdict == nil)
    }

    /// Identical columns (every value tied): nothing is marked.
    @Test func tiedColumnsAreNotMarked() throws {
        let matrix = try #require(VariantMatrix.build([record(repetitions: 10, bPasses: true, bSlower: 1, jitter: false)], labels: ["m"]))
        #expect(!matrix.rows.isEmpty && matrix.rows.allSatisfy { $0.cells.allSatisfy { $0 != nil } }, "every cell measured")
        #expect(matrix.rows.allSatisfy { $0.cells.allSatisfy { $0?.checks == nil && $0?.timeToFirstTokenVerdict == nil } })
    }

    /// Three columns: the family's error rate is split over the two comparisons.
    @Test func theErrorRateIsSplitOverTheColumns() throws {
        var three = record(repetitions: 4, bPasses: true, bSlower: 1)
        three.suites[0].conversations += three.suites[0].conversations.filter { $0.variant == "b" }.map {
            var copy = $0
            copy.id = "c@z"
            copy.variant = "z"
            return copy
        }
        let matrix = try #require(VariantMatrix.build([three], labels: ["m"]))
        #expect(matrix.columns.map(\.label) == ["a", "b", "z"])
        #expect(matrix.comparisons.count == 2)
        #expect(abs(matrix.errorRatePerComparison - ComparisonSettings.default.familyErrorRate / 2) < 1e-12)
        // Within a column, its check marks (one-sided each way) and its TTFT marks each get a quarter.
        #expect(abs(matrix.comparisons[0].design.familyErrorRate - ComparisonSettings.default.familyErrorRate / 8) < 1e-12)
    }

    @Test func oneModelWithoutVariantsHasNoMatrixAndTwoModelsAreColumns() throws {
        let plain = RecordBuilder()
        var one = plain
        one.replay(repetition: 1, ttft: [0.1])
        #expect(VariantMatrix.build([one.record], labels: ["m"]) == nil)
        let matrix = try #require(VariantMatrix.build([one.record, one.record], labels: ["small.gguf", "large.gguf"]))
        #expect(matrix.columns.map(\.label) == ["small.gguf", "large.gguf"])
    }

    /// Identical variants, many times over: the matrix marks a cell ▲ or ▼ (checks or TTFT) in at
    /// most α of them (the upper end of its 95% Clopper–Pearson interval). Ten one-turn
    /// conversations, three with a check passing half the time, TTFT log-normal with a 30% spread,
    /// 20 replays per column, and only TTFT compared, so that both families of marks — the
    /// checks' and the TTFTs' — spend their rate on the cells. When each family held α on its own,
    /// 6.9% [6.1%, 7.7%] of the matrices were marked at α 5% (short of 2α only because Fisher's test
    /// is discrete).
    @Test func identicalVariantsAreMarkedInAtMostAlphaOfMatrices() throws {
        var settings = ComparisonSettings.default
        settings.familyErrorRate = 0.05
        settings.metrics = [.timeToFirstToken]
        var random = SeededRandom(seed: 29)
        let typical = (0..<10).map { _ in 0.05 + random.uniform() }
        let trials = 4000
        var marked = 0, checksMarked = 0, ttftMarked = 0
        for _ in 0..<trials {
            var builder = RecordBuilder()
            for repetition in 1...20 {
                for (index, level) in typical.enumerated() {
                    for variant in ["a", "b"] {
                        builder.replay(
                            conversation: "c\(index)@\(variant)", repetition: repetition, ttft: [level * exp(0.3 * random.normal())],
                            checks: index < 3 ? [[random.uniform() < 0.5]] : [])
                    }
                }
            }
            for index in builder.record.suites[0].conversations.indices {
                let id = builder.record.suites[0].conversations[index].id
                builder.record.suites[0].conversations[index].variant = String(id.split(separator: "@").last ?? "")
            }
            let matrix = try #require(VariantMatrix.build([builder.record], labels: ["m"], settings: settings))
            let cells = matrix.rows.compactMap { $0.cells[1] }
            let checks = cells.contains { $0.checks == .improvement || $0.checks == .regression }
            let ttft = cells.contains { $0.timeToFirstTokenVerdict != nil }
            if checks { checksMarked += 1 }
            if ttft { ttftMarked += 1 }
            if checks || ttft { marked += 1 }
        }
        let rate = try #require(ClopperPearson(successes: marked, trials: trials))
        let message =
            "identical variants: \(marked) of \(trials) matrices marked, \(rate.percentText()) (95% Clopper–Pearson); "
            + "checks \(checksMarked), TTFT \(ttftMarked); α \(settings.familyErrorRate)"
        print(message)
        #expect(rate.upper <= settings.familyErrorRate, "\(message)")
    }
}

/// A comparison says which inputs changed between the sides, next to what moved.
@Suite struct InputDifferencesTests {
    @Test func aChangedSystemPromptUserMessageAndCheckAreListed() throws {
        var base = RecordBuilder(runId: "b"), head = RecordBuilder(runId: "h", commit: String(repeating: "b", count: 40))
        for repetition in 1...3 {
            base.replay(repetition: repetition, ttft: [0.1, 0.1], checks: [[true], [true]])
            head.replay(repetition: repetition, ttft: [0.2, 0.2], checks: [[true], [true, true]])
        }
        for index in head.record.suites[0].conversations.indices {
            head.record.suites[0].conversations[index].systemPrompt = "Be brief. Today is 2026-11-26."
            head.record.suites[0].conversations[index].turns[1].replayed.user = "And now?"
        }
        let inputs = InputDifferences.between(base: [base.record], head: [head.record])
        #expect(inputs.map(\.field) == [.systemPrompt, .userMessage, .checks])
        #expect(inputs[0].description == #"s/c: system prompt "(none)" → "Be brief. Today is 2026-11-26.""#)
        #expect(inputs[1].turn == 2 && inputs[1].head == #""And now?""#)
        #expect(inputs[2].base == #""icontains""# && inputs[2].head == #""icontains, icontains""#)
        let comparison = RunComparator.compare(
            base: ComparedRuns(runs: [base.record], sources: ["b"]), head: ComparedRuns(runs: [head.record], sources: ["h"]),
            settings: .default)
        #expect(comparison.inputs?.count == 3)
        // Identical inputs: nothing listed.
        #expect(InputDifferences.between(base: [base.record], head: [base.record]).isEmpty)
    }

    /// A long text is shown around where it first differs.
    @Test func longTextsAreCutAroundTheirFirstDifference() {
        let old = String(repeating: "a", count: 200) + "X" + String(repeating: "b", count: 200)
        let new = String(repeating: "a", count: 200) + "Y" + String(repeating: "b", count: 200)
        let (a, b) = InputDifferences.excerpts(old, new)
        #expect(a.hasPrefix("\"…") && a.contains("X") && a.hasSuffix("…\"") && a.count < 70)
        #expect(b.contains("Y"))
    }
}
