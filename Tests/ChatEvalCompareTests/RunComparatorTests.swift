import ChatEvalCompare
import ChatEvalCore
import ChatEvalStore
import Foundation
import ChatEvalTestKit
import Testing

/// Builds run records turn by turn for comparison tests.
struct RecordBuilder {
    var record: RunRecord

    init(runId: String = "r", commit: String = String(repeating: "a", count: 40), cpu: String = "cpu", modelSha: String = "m",
         threads: Int = 2, sources: [String: SettingSource]? = nil) {
        let git = GitSnapshot(
            commit: commit, shortCommit: String(commit.prefix(7)), branch: "main", isDetached: false, isUnborn: false,
            modifiedCount: 0, untrackedCount: 0, commitTime: nil, commitTimeZoneOffsetMinutes: nil, subject: "s",
            describe: nil, isShallow: false, workdir: "/r")
        let runtime = RuntimeIdentity(
            engine: "llama.cpp", build: "b1", model: ModelIdentity(path: "/m.gguf", fileBytes: 1, description: "model"),
            chatTemplate: "embedded", chatTemplateSource: "model", chatTemplateHash: "h", contextSize: 4096, batchSize: 512, threads: threads)
        record = RunRecord(
            runId: runId, startedAt: Date(timeIntervalSince1970: 0), command: [], git: git,
            machine: MachineInfo(hostname: "h", cpuModel: cpu, logicalCores: 2, memoryBytes: 1, operatingSystem: "", kernel: "", architecture: "x86_64"),
            runtime: runtime, modelSha256: modelSha,
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0, sources: sources))
    }

    /// Adds one replay of `conversation` in `suite` whose turns have these TTFTs, answers and check outcomes.
    mutating func replay(suite: String = "s", conversation: String = "c", repetition: Int, ttft: [Double],
                         answers: [String]? = nil, checks: [[Bool]] = [], reuse: [Int]? = nil, failedTurn: Int? = nil) {
        let turns = ttft.enumerated().map { index, value -> TurnRecord in
            if index == failedTurn {
                return TurnRecord(ReplayedTurn(index: index, user: "u", messagesSent: 2, status: .failed,
                                               failure: RuntimeFailure(.contextOverflow, "the prompt does not fit")))
            }
            let metrics = TurnMetrics(
                promptTokens: 100, reusedTokens: reuse?[index] ?? 50, generatedTokens: 8, timeToFirstToken: value, prefillTime: value / 2,
                decodeTime: 0.1, totalTime: value + 0.1, interTokenLatencies: Array(repeating: 0.0143, count: 7), stopReason: .endOfGeneration,
                peakResidentBytes: 200_000_000)
            let verdicts = index < checks.count
                ? checks[index].map { Verdict(check: "icontains", passed: $0, detail: $0 ? "found \"Lyon\"" : "expected \"Lyon\"; not found") }
                : nil
            return TurnRecord(ReplayedTurn(index: index, user: "u", messagesSent: 2, status: .answered, answer: answers?[index] ?? "answer \(index)",
                                           metrics: metrics), checks: verdicts)
        }
        if let existing = record.suites.firstIndex(where: { $0.name == suite }) {
            record.suites[existing].conversations.append(
                ConversationRecord(id: conversation, repetition: repetition, warmup: false, systemPrompt: nil, options: GenerationOptions(), turns: turns))
        } else {
            record.suites.append(SuiteRecord(name: suite, path: "\(suite).yaml", conversations: [
                ConversationRecord(id: conversation, repetition: repetition, warmup: false, systemPrompt: nil, options: GenerationOptions(), turns: turns),
            ]))
        }
        record.settings.repetitions = max(record.settings.repetitions, repetition)
    }
}

@Suite struct RunComparatorTests {
    private func compare(_ base: RecordBuilder, _ head: RecordBuilder, settings: ComparisonSettings = .default) -> Comparison {
        RunComparator.compare(base: ComparedRuns(runs: [base.record], sources: ["base.json"]),
                              head: ComparedRuns(runs: [head.record], sources: ["head.json"]), settings: settings)
    }

    /// Ten replays of a 4-turn conversation with TTFTs around `level` (deterministic jitter).
    private func runs(level: Double, factor: Double = 1, checks: [[Bool]] = [], reuse: [Int]? = nil, seed: UInt64) -> RecordBuilder {
        var random = SeededRandom(seed: seed)
        var builder = RecordBuilder()
        for repetition in 1...10 {
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
        // Per-turn detail: every turn, each compared with itself.
        #expect(comparison.suites[0].turns.map(\.turn) == [1, 2, 3, 4])
    }

    @Test func theSameBuildTwiceIsUnchanged() throws {
        let comparison = compare(runs(level: 0.1, seed: 3), runs(level: 0.1, seed: 4))
        #expect(try change(comparison, .timeToFirstToken).verdict == .unchanged)
        #expect(!comparison.hasRegression)
        // Values that do not vary at all are an exact, zero difference.
        let memory = try change(comparison, .peakMemory)
        #expect(memory.verdict == .unchanged && memory.change == 0)
    }

    @Test func anExactDifferenceNeedsNoTest() throws {
        // Greedy replays reuse the same tokens every time: a drop from 90 to 60 reused tokens is certain.
        let comparison = compare(runs(level: 0.1, reuse: [90, 90, 90, 90], seed: 5), runs(level: 0.1, reuse: [60, 60, 60, 60], seed: 6))
        let reuse = try change(comparison, .reuseRatio)
        #expect(reuse.verdict == .regression)
        #expect(reuse.scale == "absolute")
        #expect(abs((reuse.change ?? 0) + 0.3) < 1e-9)
    }

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

    @Test func aCheckThatAlwaysPassedAndNowAlwaysFailsIsListed() throws {
        let comparison = compare(runs(level: 0.1, checks: [[true], [true]], seed: 7), runs(level: 0.1, checks: [[true], [false]], seed: 8))
        let failing = try #require(comparison.quality.newlyFailing.first)
        #expect(comparison.quality.newlyFailing.count == 1)
        #expect(failing.suite == "s" && failing.conversation == "c" && failing.turn == 2 && failing.check == "icontains")
        #expect(failing.basePassed == 10 && failing.headPassed == 0)
        #expect(failing.answerExcerpt == "answer 1")
        #expect(failing.detail?.contains("not found") == true)
        #expect(comparison.hasRegression)
    }

    @Test func aCheckThatPassesOnlySometimesIsFlakyNotARegression() throws {
        var base = RecordBuilder(), head = RecordBuilder()
        for repetition in 1...4 {
            base.replay(repetition: repetition, ttft: [0.1], checks: [[true]])
            head.replay(repetition: repetition, ttft: [0.1], checks: [[repetition % 2 == 0]])
        }
        let comparison = compare(base, head)
        #expect(comparison.quality.newlyFailing.isEmpty)
        #expect(comparison.quality.flaky.count == 1)
        #expect(!comparison.quality.hasRegression)
    }

    @Test func newlyPassingAndAddedChecksAreReportedNotGated() {
        var base = RecordBuilder(), head = RecordBuilder()
        base.replay(repetition: 1, ttft: [0.1], checks: [[false]])
        head.replay(repetition: 1, ttft: [0.1], checks: [[true, false]])
        let quality = compare(base, head).quality
        #expect(quality.newlyPassing.count == 1)
        #expect(quality.added.count == 1 && quality.added[0].position == 2)
        #expect(!quality.hasRegression)
    }

    @Test func aTurnThatNowFailsIsARegression() {
        var base = RecordBuilder(), head = RecordBuilder()
        base.replay(repetition: 1, ttft: [0.1, 0.2])
        head.replay(repetition: 1, ttft: [0.1, 0.2], failedTurn: 1)
        let comparison = compare(base, head)
        #expect(comparison.quality.newlyFailingTurns.map(\.turn) == [2])
        #expect(comparison.quality.newlyFailingTurns.first?.headOutcome.hasPrefix("context_overflow") == true)
        #expect(comparison.hasRegression)
    }

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

    @Test func theComparisonEncodesWithInfiniteIntervalEndsAsStrings() throws {
        var base = RecordBuilder(), head = RecordBuilder()
        base.replay(repetition: 1, ttft: [0.1])
        head.replay(repetition: 1, ttft: [0.2])
        let data = try ResultWriter.makeEncoder(pretty: false).encode(compare(base, head))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"schema_version\":1"))
        let decoded = try ResultWriter.makeDecoder().decode(Comparison.self, from: data)
        #expect(decoded.suites.count == 1)
    }
}

/// reports/schema/comparison.schema.json documents every key `compare --format json` writes.
@Suite struct ComparisonSchemaTests {
    static let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("reports/schema/comparison.schema.json")

    @Test func everyKeyTheEncoderWritesIsInTheSchema() throws {
        // A comparison with every part filled: changes of every kind, check changes, a mismatch.
        var base = RecordBuilder(cpu: "a"), head = RecordBuilder(cpu: "b")
        for repetition in 1...4 {
            base.replay(repetition: repetition, ttft: [0.1, 0.2], checks: [[true, true, false], [repetition % 2 == 0]])
            head.replay(repetition: repetition, ttft: [0.1, 0.3], checks: [[false, true, true, true]], failedTurn: 1)
        }
        let comparison = RunComparator.compare(base: ComparedRuns(runs: [base.record], sources: ["b.json"]),
                                               head: ComparedRuns(runs: [head.record], sources: ["h.json"]), settings: .default)
        #expect(!comparison.quality.newlyFailing.isEmpty && !comparison.quality.newlyPassing.isEmpty && !comparison.quality.added.isEmpty)
        #expect(!comparison.quality.newlyFailingTurns.isEmpty && !comparison.differences.isEmpty)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
        let document = try JSONSerialization.jsonObject(with: try ResultWriter.makeEncoder(pretty: false).encode(comparison))
        let undocumented = SchemaCoverage.undocumentedKeys(in: document, schema: schema, root: schema)
        #expect(undocumented.isEmpty, "keys missing from comparison.schema.json: \(undocumented)")
    }
}
