import ChatEvalCore
import ChatEvalReport
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// The compact cross-model table (issue 31): a row per model, in the terminal, Markdown and CSV.
@Suite struct ModelTableTests {
    /// Two models' runs of the built-in benchmark: b twice as slow to its first token as a.
    static func records() -> [RunRecord] {
        var synthetic = SyntheticRuns(seed: 8, noise: 0)
        return [("a.gguf", 0.1), ("b.gguf", 0.2)].enumerated().map { index, model in
            var record = synthetic.record(runId: "r\(index)", commit: nil, conversations: 3, turns: 4, ttft: model.1)
            record.runtime.model.path = "/models/" + model.0
            record.group = RunGroup(id: "g", index: index + 1, count: 2, label: model.0)
            record.suites[0].path = BuiltInSuite.chatBenchmarkPath
            record.suites[0].name = "chat-benchmark"
            for conversation in record.suites[0].conversations.indices {
                record.suites[0].conversations[conversation].load = ReplayLoad(otherCores: index == 0 ? 0.1 : 1.2, seconds: 10)
            }
            return record
        }
    }

    @Test func eachModelIsARowOfMediansWithReuseOverTheTurnsThatCouldReuse() throws {
        let table = ModelTable(Self.records())
        #expect(table.rows.map(\.label) == ["a.gguf", "b.gguf"])
        let a = try #require(table.rows.first)
        #expect(a.turns == 12)
        // TTFT per turn is ttft × (1 + 0.25 × turn): 0.1, 0.125, 0.15, 0.175 in each conversation.
        #expect(abs((a.timeToFirstToken ?? 0) - 0.1375) < 1e-9)
        #expect(abs((a.timeToFirstTokenDeviation ?? 0) - 0.025) < 1e-9)
        // Turns 2–4 reuse 36/80, 76/120, 116/160; turn 1 (nothing to reuse) is not counted.
        #expect(abs((a.laterTurnsReuse ?? 0) - 76.0 / 120) < 1e-9)
        #expect(a.busyReplays == 0 && table.rows[1].busyReplays == 3)
    }

    @Test func itReadsInTheTerminalInMarkdownAndInCSV() throws {
        let records = Self.records()
        let terminal = RunReport.render(records)
        #expect(terminal.contains("TTFT p50 ± MAD") && terminal.contains(" ± 25 ms") && terminal.contains("63%"))
        #expect(terminal.contains("1.20 (busy in 3/3)"))
        // The replays measured on a busy machine are named, not only the header's "busy".
        #expect(terminal.contains("⚠ 3 of 6 replays measured while other processes used 0.25 cores or more"), "\(terminal)")
        #expect(terminal.contains("chat-benchmark/conversation-1 · rep 1 · b.gguf: 1.20 other cores"))
        let markdown = MarkdownReport.render(runs: records)
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| a.gguf") || $0.hasPrefix("| b.gguf") }
        #expect(rows.count == 2, "\(markdown)")
        #expect(markdown.contains("| model | turns | TTFT p50 ± MAD | prefill t/s | decode t/s | reuse turns ≥ 2 | other cores |"))
        let csv = try StrictCSV.parse(ModelTable(records).csv())
        #expect(csv.first == ModelTable.csvColumns)
        #expect(csv.count == 3 && csv[1][0] == "a.gguf" && csv[2][2] == "0.275")
    }

    /// One model's run of the built-in benchmark shows its table too; a suite of one's own does not.
    @Test func aSingleModelShowsTheTableOnlyForTheBenchmark() {
        let benchmark = Array(Self.records().prefix(1))
        #expect(ModelTable.isBenchmark(benchmark) && RunReport.render(benchmark).contains("TTFT p50 ± MAD"))
        var suite = benchmark
        suite[0].suites[0].path = "suites/smoke.yaml"
        #expect(!ModelTable.isBenchmark(suite) && !RunReport.render(suite).contains("TTFT p50 ± MAD"))
    }
}
