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
        (0..<count).reversed().map {
            CommitSummary(
                id: SyntheticRuns.commitID($0), shortId: String(SyntheticRuns.commitID($0).prefix(7)),
                subject: "commit \($0)", time: Date(timeIntervalSince1970: Double(1_800_000_000 + $0 * 3600)))
        }
    }

    /// One run per commit, TTFT stepping up 20% at `stepAt`.
    static func runs(_ count: Int, stepAt: Int?, seed: UInt64, skip: Set<Int> = [], machine: MachineInfo = SyntheticRuns.machine)
        -> [RunDigest]
    {
        var synthetic = SyntheticRuns(seed: seed)
        return (0..<count).filter { !skip.contains($0) }.map { number in
            let ttft = stepAt.map { number >= $0 } == true ? 0.24 : 0.2
            let record = synthetic.record(
                runId: "run\(number)-\(machine.logicalCores)", commit: SyntheticRuns.commitID(number),
                startedAt: Date(timeIntervalSince1970: Double(1_800_000_000 + number * 3600)), ttft: ttft, machine: machine)
            return RunDigest(record, source: "file\(number).json")
        }
    }

    @Test func aStepAtCommit40Of60IsMarkedThereAndNowhereElse() throws {
        let history = HistoryBuilder.build(
            commits: Self.commits(60), runs: Self.runs(60, stepAt: 40, seed: 4), metrics: HistoryMetric.defaults)
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
        let history = HistoryBuilder.build(
            commits: Self.commits(60), runs: Self.runs(60, stepAt: nil, seed: 5), metrics: [.metric(.timeToFirstToken)])
        #expect(history.series.count == 1)
        #expect(history.series[0].steps.isEmpty)
    }

    @Test func commitsWithoutResultsAreGapsAndTheSuspectIsTheFirstCommitAfterTheOldLevel() throws {
        let history = HistoryBuilder.build(
            commits: Self.commits(60), runs: Self.runs(60, stepAt: 40, seed: 4, skip: [37, 38, 39, 40, 41]),
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

    /// A step in the newest three commits, where a CI job looks first: found, and named by its suspect.
    @Test func aStepInTheNewestThreeCommitsIsFound() throws {
        let history = HistoryBuilder.build(
            commits: Self.commits(60), runs: Self.runs(60, stepAt: 57, seed: 12), metrics: [.metric(.timeToFirstToken)])
        let step = try #require(history.series.first?.steps.last)
        #expect(step.suspect == SyntheticRuns.commitID(57))
        #expect(step.isWorse && (step.change ?? 0) > 0.1)
    }

    /// Pass rates are tie-heavy: a commit passes 0.85 or 0.80 of its checks. Before commit 420 of
    /// 700, 40% of commits pass 0.80; after it, 60%. The segments' medians move 0.85 → 0.80 while
    /// the median pairwise difference is 0 — and the old code took the change from the medians
    /// (−5.9%) and the direction from the pairwise estimate (0: "not worse"), printing "better
    /// pass rate −5.9%" for a drop. One estimator now says all three.
    @Test func aTieHeavyDropInPassRateIsReportedWorseByOneEstimator() throws {
        var synthetic = SyntheticRuns(seed: 13)
        let runs = (0..<700).map { number -> RunDigest in
            let record = synthetic.record(
                runId: "run\(number)", commit: SyntheticRuns.commitID(number),
                startedAt: Date(timeIntervalSince1970: Double(1_800_000_000 + number * 3600)))
            var digest = RunDigest(record, source: "file\(number).json")
            let lowShare = number < 420 ? 2 : 3  // of every 5 commits
            digest.suites[0].checksTotal = 20
            digest.suites[0].checksPassed = number % 5 < lowShare ? 16 : 17
            return digest
        }
        let history = HistoryBuilder.build(commits: Self.commits(700), runs: runs, metrics: [.passRate])
        let series = try #require(history.series.first)
        let step = try #require(series.steps.first, "the drop must be found")
        #expect(abs(step.suspectPosition - 420) <= 5)
        // The medians moved 0.85 → 0.80 while the median pairwise difference is 0.
        #expect(step.before == 0.85 && step.after == 0.8)
        let change = try #require(step.change), lower = try #require(step.changeLower), upper = try #require(step.changeUpper)
        #expect(lower <= change && change <= upper)
        // Direction, change and interval agree: down, and worse for a pass rate.
        #expect(change <= 0 && upper <= 0 && lower < 0)
        #expect(step.isWorse)
        #expect(history.regressions.count == series.steps.filter(\.isWorse).count)
    }

    @Test func suitesCanBeChosen() {
        var synthetic = SyntheticRuns(seed: 8)
        let record = synthetic.record(runId: "r", commit: SyntheticRuns.commitID(0), suites: ["a", "b"])
        let history = HistoryBuilder.build(
            commits: Self.commits(1), runs: [RunDigest(record, source: "f")], metrics: [.passRate], suites: ["b"])
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
