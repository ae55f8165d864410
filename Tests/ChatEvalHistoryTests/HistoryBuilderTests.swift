import ChatEvalCore
import ChatEvalHistory
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// Histories built from generated runs: steps named by their suspect commit, gaps, series kept
/// apart by machine and model, dirty runs left out.
@Suite struct HistoryBuilderTests {
    /// Commits 0..<count, newest first as the walk yields them.
    static func commits(_ count: Int) -> [CommitSummary] {
        (0..<count).reversed().map { CommitSummary(id: SyntheticRuns.commitID($0), shortId: String(SyntheticRuns.commitID($0).prefix(7)),
                                                  subject: "commit \($0)", time: Date(timeIntervalSince1970: Double(1_800_000_000 + $0 * 3600))) }
    }

    /// One run per commit, TTFT stepping up 20% at `stepAt`.
    static func runs(_ count: Int, stepAt: Int?, seed: UInt64, skip: Set<Int> = [], machine: MachineInfo = SyntheticRuns.machine) -> [RunDigest] {
        var synthetic = SyntheticRuns(seed: seed)
        return (0..<count).filter { !skip.contains($0) }.map { number in
            let ttft = stepAt.map { number >= $0 } == true ? 0.24 : 0.2
            let record = synthetic.record(runId: "run\(number)-\(machine.logicalCores)", commit: SyntheticRuns.commitID(number),
                                          startedAt: Date(timeIntervalSince1970: Double(1_800_000_000 + number * 3600)), ttft: ttft, machine: machine)
            return RunDigest(record, source: "file\(number).json")
        }
    }

    @Test func aStepAtCommit40Of60IsMarkedThereAndNowhereElse() throws {
        let history = HistoryBuilder.build(commits: Self.commits(60), runs: Self.runs(60, stepAt: 40, seed: 4), metrics: HistoryMetric.defaults)
        let ttft = try #require(history.series.first { $0.metric == .metric(.timeToFirstToken) })
        #expect(ttft.points.count == 60)
        #expect(ttft.steps.map(\.suspect) == [SyntheticRuns.commitID(40)])
        let step = try #require(ttft.steps.first)
        #expect(step.isWorse && step.firstMeasured == step.suspect)
        #expect(step.change.map { abs($0 - 0.2) < 0.05 } == true)
        #expect(history.commit(at: step.suspectPosition)?.subject == "commit 40")
        let passRate = try #require(history.series.first { $0.metric == .passRate })
        #expect(passRate.steps.isEmpty && passRate.points.allSatisfy { $0.median == 1 })
        #expect(history.regressions.count == 1)
    }

    @Test func aNoisyFlatHistoryHasNoStep() {
        let history = HistoryBuilder.build(commits: Self.commits(60), runs: Self.runs(60, stepAt: nil, seed: 5), metrics: [.metric(.timeToFirstToken)])
        #expect(history.series.count == 1)
        #expect(history.series[0].steps.isEmpty)
    }

    @Test func commitsWithoutResultsAreGapsAndTheSuspectIsTheFirstCommitAfterTheOldLevel() throws {
        let history = HistoryBuilder.build(commits: Self.commits(60), runs: Self.runs(60, stepAt: 40, seed: 4, skip: [37, 38, 39, 40, 41]),
                                           metrics: [.metric(.timeToFirstToken)])
        let series = try #require(history.series.first)
        #expect(series.points.count == 55 && !series.points.contains { (37...41).contains($0.position) })
        let step = try #require(series.steps.first)
        #expect(series.steps.count == 1)
        #expect(step.suspect == SyntheticRuns.commitID(37), "the first commit after the last one measured at the old level")
        #expect(step.firstMeasured == SyntheticRuns.commitID(42))
    }

    @Test func machinesAndModelsAreSeparateSeriesAndDirtyRunsAreLeftOut() throws {
        var other = SyntheticRuns.machine
        other.logicalCores = 16
        var runs = Self.runs(10, stepAt: nil, seed: 6) + Self.runs(10, stepAt: nil, seed: 7, machine: other)
        runs[0].dirty = true
        runs[1].status = .incomplete
        runs[2].modelSha256 = String(repeating: "9", count: 64)
        let history = HistoryBuilder.build(commits: Self.commits(10), runs: runs, metrics: [.metric(.timeToFirstToken)])
        #expect(history.series.count == 3)
        #expect(Set(history.series.map(\.key.machine)).count == 2)
        #expect(history.series.map(\.points.count).sorted() == [1, 7, 10])
        #expect(history.skippedDirtyRuns == 1 && history.skippedIncompleteRuns == 1)
    }

    @Test func suitesCanBeChosen() {
        var synthetic = SyntheticRuns(seed: 8)
        let record = synthetic.record(runId: "r", commit: SyntheticRuns.commitID(0), suites: ["a", "b"])
        let history = HistoryBuilder.build(commits: Self.commits(1), runs: [RunDigest(record, source: "f")], metrics: [.passRate], suites: ["b"])
        #expect(history.series.map(\.key.suite) == ["b"])
    }
}

/// The history JSON and its published schema agree.
@Suite struct HistorySchemaTests {
    static let schemaURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("reports/schema/history.schema.json")

    @Test func everyKeyTheEncoderWritesIsInTheSchema() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
        var runs = HistoryBuilderTests.runs(60, stepAt: 40, seed: 4, skip: [38, 39])
        runs[0].hostname = "other-host"
        let history = HistoryBuilder.build(commits: HistoryBuilderTests.commits(60), runs: runs, metrics: HistoryMetric.defaults)
        #expect(history.series.contains { !$0.steps.isEmpty }, "a step, so that its keys are written")
        let encoded = try ResultWriter.makeEncoder(pretty: false).encode(history)
        let json = try JSONSerialization.jsonObject(with: encoded)
        #expect(SchemaCoverage.undocumentedKeys(in: json, schema: schema, root: schema) == [])
        let decoded = try ResultWriter.makeDecoder().decode(History.self, from: encoded)
        #expect(decoded.series.map(\.steps.count) == history.series.map(\.steps.count))
    }
}
