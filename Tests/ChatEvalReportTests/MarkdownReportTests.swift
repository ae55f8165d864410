import ChatEvalCore
import ChatEvalReport
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// The Markdown report, rendered by GitHub's own renderer (cmark-gfm with its table extension):
/// tables come out as tables, model text never as markup, and a huge run fits GitHub's summary.
@Suite struct MarkdownReportTests {
    /// The HTML cmark-gfm makes of `markdown`, as GitHub renders a summary or a comment.
    func rendered(_ markdown: String) async throws -> String {
        let file = try ReportFixtures.temporaryFile("report.md", markdown)
        defer { try? FileManager.default.removeItem(at: file) }
        let cmark = try ReportFixtures.tool("/usr/bin/cmark-gfm")
        let outcome = try await ReportFixtures.run(cmark, ["--extension", "table", "--extension", "strikethrough", file.path])
        try #require(outcome.status == 0, "cmark-gfm: \(outcome.stderr)")
        return outcome.stdout
    }

    @Test func aRunRendersAsTablesWithModelTextAsText() async throws {
        let markdown = MarkdownReport.render(runs: [ReportFixtures.run()])
        #expect(markdown.hasPrefix("## ChatEval run"))
        #expect(markdown.contains("❌ **1 of 2 gates failed.**"))
        let html = try await rendered(markdown)
        #expect(html.components(separatedBy: "<table>").count - 1 == 4, "summary, failures, and the per-turn detail of both suites")
        // The summary table: a header and one row per suite.
        let summary = try #require(html.components(separatedBy: "</table>").first)
        #expect(summary.components(separatedBy: "<tr>").count - 1 == 3)
        #expect(!html.contains("<script>") && !html.contains("<img") && html.contains("&lt;script&gt;"))
        #expect(!html.contains("<b>bold</b>"), "a user's markup stays text")
        // The hostile answer's pipes did not add cells: every row of the detail table has 9 cells.
        let detail = try #require(html.components(separatedBy: "<table>").dropFirst(3).first)
        for row in detail.components(separatedBy: "<tr>").dropFirst() {
            #expect(row.components(separatedBy: "<td").count - 1 == 9 || row.contains("<th"), "\(row)")
        }
    }

    /// With the run's roofline and the machine's probed bandwidth, each turn's decode shows as a
    /// share of the bound at its mean depth; without either figure, no column is shown at all.
    @Test func eachTurnsDecodeIsAShareOfTheBandwidthBoundWhenBothFiguresAreRecorded() async throws {
        var run = ReportFixtures.run()
        #expect(!MarkdownReport.render(runs: [run]).contains("share of bound"))
        // The buffers' sum alone (a record from before the weights were counted once, when a
        // repacked copy could double it): no roofline, so no column.
        run.runtime.memory = EngineMemory(modelBytes: 180_000_000)
        run.runtime.memory?.kvBytesPerPosition = 20_000
        run.machine.memoryBandwidth = 10e9
        #expect(!MarkdownReport.render(runs: [run]).contains("share of bound"), "no weights counted once: no column")
        run.machine.memoryBandwidth = nil
        run.runtime.memory?.weightBytes = 90_000_000
        #expect(!MarkdownReport.render(runs: [run]).contains("share of bound"), "no bandwidth probed: no column")
        run.machine.memoryBandwidth = 10e9
        let markdown = MarkdownReport.render(runs: [run])
        #expect(markdown.contains("| decode t/s | decode, share of bound | reuse |"))
        let turn = try #require(run.suites.first?.conversations.first?.turns.first?.metrics)
        let depth = DecodeRoofline.meanDepth(promptTokens: turn.promptTokens, generatedTokens: turn.generatedTokens)
        let rate = try #require(turn.decodeTokensPerSecond)
        let expected = rate * Double(90_000_000 + 20_000 * depth) / 10e9
        #expect(markdown.contains(Format.percent(expected)), "\(Format.percent(expected)) in \(markdown)")
        let html = try await rendered(markdown)
        let detail = try #require(html.components(separatedBy: "<table>").dropFirst(3).first)
        for row in detail.components(separatedBy: "<tr>").dropFirst() {
            #expect(row.components(separatedBy: "<td").count - 1 == 10 || row.contains("<th"), "\(row)")
        }
    }

    /// Why a check failed, the user message and the answer — conversation-level checks too, which
    /// the report left out (issue 31).
    @Test func failedChecksShowTheirReasonTheUserMessageAndTheAnswer() async throws {
        let markdown = MarkdownReport.render(runs: [ReportFixtures.runWithConversationCheckFailed()])
        #expect(
            markdown.contains(
                "| smoke | conversation-1 | conversation | length | expected at most 10 words over the conversation, found 31 |  |  |"),
            "\(markdown)")
        #expect(markdown.contains("| smoke | conversation-2 | 1 | contains | expected 'answer', not found | Question 1? | Answer 1. |"))
        #expect(markdown.contains("| math | conversation-2 | 2 | runtime: context\\_overflow | the history needs 5000 tokens"))
        let html = try await rendered(markdown)
        let failures = try #require(html.components(separatedBy: "<table>").dropFirst(2).first)
        for row in failures.components(separatedBy: "<tr>").dropFirst(2) {
            #expect(row.components(separatedBy: "<td").count - 1 == 7, "\(row)")
        }
    }

    @Test func aComparisonAndAHistoryRenderAsTables() async throws {
        let comparison = try await rendered(MarkdownReport.render(comparison: ReportFixtures.comparison()))
        #expect(comparison.contains("<table>") && comparison.contains("ttft"))
        #expect(comparison.contains("REGRESSION"))
        let history = try await rendered(MarkdownReport.render(history: ReportFixtures.history()))
        #expect(history.contains("<table>"))
        #expect(history.contains("<code>\(SyntheticRuns.commitID(40).prefix(7))</code>"))
        #expect(!history.contains("<script>"))
    }

    /// 20,000 turns with 3,000-character answers and a failing check every tenth turn: the full
    /// report would be far over GitHub's 1 MiB; the summary keeps the verdict, the tables and 50 failures.
    @Test func aHugeRunIsSummarisedUnderTheSummaryLimit() async throws {
        let record = ReportFixtures.hugeRun(turns: 20_000, answerLength: 3_000)
        let markdown = MarkdownReport.render(runs: [record])
        #expect(markdown.utf8.count <= MarkdownReport.defaultBudget)
        #expect(markdown.utf8.count < 1_048_576, "GitHub's limit for a step summary")
        #expect(markdown.contains("### Failures (2000)"))
        #expect(markdown.contains("_… and 1950 more in the result file._"))
        #expect(!markdown.contains("Per-turn detail"))
        let small = MarkdownReport.render(runs: [record], budget: 2_000)
        #expect(small.utf8.count <= 2_000)
        #expect(small.contains("✅ **The gate passed.**"))
        let html = try await rendered(markdown)
        #expect(html.contains("<table>"))
    }

    /// One model file at two context sizes: the group's labels tell the runs apart in every
    /// table, the failures included, and in the JUnit suites.
    @Test func modelsSideBySideAreNamedByTheirGroupLabels() async throws {
        var records = [ReportFixtures.run(model: "smol.gguf"), ReportFixtures.run(model: "smol.gguf", seed: 2)]
        for (index, size) in ["2048", "4096"].enumerated() {
            records[index].group = RunGroup(id: "g", index: index + 1, count: 2, label: "smol.gguf (ctx \(size))")
        }
        let markdown = MarkdownReport.render(runs: records)
        #expect(markdown.contains("| smoke | smol.gguf (ctx 2048) |") && markdown.contains("| smoke | smol.gguf (ctx 4096) |"))
        #expect(markdown.contains("| model | suite | conversation | turn | check | reason | user | answer |"))
        #expect(markdown.contains("| smol.gguf (ctx 4096) | math | conversation-2 | 2 | runtime: context\\_overflow |"))
        let html = try await rendered(markdown)
        // Summary, models, the matrix, then the failures.
        let failures = try #require(html.components(separatedBy: "<table>").first { $0.contains("<th>reason</th>") })
        for row in failures.components(separatedBy: "<tr>").dropFirst(2) {
            #expect(
                row.components(separatedBy: "<td").count - 1 == 8, "model, suite, conversation, turn, check, reason, user, answer: \(row)")
        }
        let junit = JUnitReport.render(runs: records)
        #expect(junit.contains("name=\"math (smol.gguf (ctx 2048))\"") && junit.contains("name=\"math (smol.gguf (ctx 4096))\""))
    }

    @Test func theEscapingLeavesNothingForMarkdownToAct() {
        #expect(Markup.markdown("a|b\nc <x> *y* `z` [l](u)") == "a\\|b ⏎ c &lt;x&gt; \\*y\\* \\`z\\` \\[l\\](u)")
    }
}
