import ChatEvalCompare
import ChatEvalCore
import ChatEvalReport
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// Issue 41, item 5, and issue 48, item 1: a comparison of separately recorded runs says, per
/// gated metric, the smallest change it could call, and how many replays its load screen left out.
@Suite struct RecordedRunsReportTests {
    /// One run a side, eight one-turn questions, ten repetitions; head's first two repetitions
    /// measured beside a compile.
    static func comparison(runSpread: RunToRunSpread?, conversations: Int = 8, repetitions: Int = 10) -> Comparison {
        var synthetic = SyntheticRuns(seed: 8, noise: 0.03)
        func run(_ id: String, commit: Int, busy: Bool) -> RunRecord {
            var record = synthetic.record(runId: id, commit: SyntheticRuns.commitID(commit), conversations: conversations, turns: 1)
            for repetition in 2...repetitions {
                let next = synthetic.record(runId: id, commit: SyntheticRuns.commitID(commit), conversations: conversations, turns: 1)
                record.suites[0].conversations += next.suites[0].conversations.map { replay in
                    var replay = replay
                    replay.repetition = repetition
                    return replay
                }
            }
            for index in record.suites[0].conversations.indices {
                let replay = record.suites[0].conversations[index]
                record.suites[0].conversations[index].load = ReplayLoad(
                    otherCores: busy && replay.repetition <= 2 ? 1.2 : 0.02, seconds: 1)
            }
            record.settings.repetitions = repetitions
            return record
        }
        return RunComparator.compare(
            base: ComparedRuns(runs: [run("base", commit: 1, busy: false)], sources: ["base.json"]),
            head: ComparedRuns(runs: [run("head", commit: 2, busy: true)], sources: ["head.json"]), settings: .default,
            runSpread: runSpread)
    }

    @Test func separatelyRecordedRunsPrintTheirFloorAndTheirScreen() throws {
        let comparison = Self.comparison(runSpread: .stated)
        let floors = comparison.runFloors
        let ttft = try #require(floors.first { $0.metric == .timeToFirstToken })
        // The stated tail: a disturbed head run is 13–18% slower, so nothing under 18% is callable.
        #expect(ttft.change > 0.18 && ttft.change.isFinite)
        let decode = try #require(floors.first { $0.metric == .decodeTokensPerSecond })
        #expect(decode.change < -0.15)
        #expect(!floors.contains { $0.metric == .reuseRatio })
        let text = ComparisonReport.render(comparison, verbose: false)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("floor     recorded runs: a change under ttft +") })
        #expect(line.contains(String(format: "ttft %+.1f%%", ttft.change * 100)), "\(line)")
        #expect(line.hasSuffix("cannot be called here; `run --baseline` decides it paired"))
        #expect(
            text.contains(
                "load      screened replay by replay (other processes at 0.25 cores or more): base 0 of 80 left out, head 16 of 80"))
        // Said once: no per-side line repeats the count, nor calls the load kept as a pair's arms saw it.
        #expect(!text.contains("load      head: ") && !text.contains("kept where a pair's arms saw it alike"))
        #expect(MarkdownReport.render(comparison: comparison).contains("recorded runs: a change under ttft +"))
        let json = String(decoding: try ResultWriter.makeEncoder(pretty: false).encode(comparison), as: UTF8.self)
        #expect(json.contains("\"run_floor\":") && json.contains("\"screened_at\":0.25") && json.contains("\"heavy_tail\":"))
    }

    /// Three repetitions of one conversation a side cannot bound a change: said as such, not as a percentage.
    @Test func aFloorTheReplaysCannotBoundIsSaid() throws {
        let comparison = Self.comparison(runSpread: .stated, conversations: 1, repetitions: 3)
        #expect(comparison.runFloors.contains { $0.metric == .timeToFirstToken && $0.change == .infinity })
        let text = ComparisonReport.render(comparison, verbose: false)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("floor     ") })
        #expect(line.contains("no change of ttft, "), "\(line)")
        #expect(line.contains("can (too few replays to bound one); `run --baseline` decides it paired"))
    }

    @Test func aComparisonWithoutARunTermPrintsNoFloor() {
        let comparison = Self.comparison(runSpread: nil)
        #expect(comparison.runFloors.isEmpty)
        #expect(!ComparisonReport.render(comparison, verbose: false).contains("floor     "))
    }
}
