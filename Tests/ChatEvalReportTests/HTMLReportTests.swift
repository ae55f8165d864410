import ChatEvalCore
import ChatEvalHistory
import ChatEvalReport
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// The HTML report: one self-contained page, every text escaped, the charts there, small enough.
/// (`make test-html` also opens it in headless Chromium.)
@Suite struct HTMLReportTests {
    /// Nothing the page loads from elsewhere, and no script of any kind.
    func expectSelfContained(_ html: String) {
        let lower = html.lowercased()
        #expect(!lower.contains("<script"), "no script element")
        #expect(!lower.contains("<link") && !lower.contains("@import") && !lower.contains("url("), "no external style or font")
        #expect(!lower.contains("src=\"http") && !lower.contains("href=\"http"), "nothing loaded from the network")
        #expect(lower.contains("content-security-policy") && lower.contains("default-src 'none'"))
        #expect(
            html.components(separatedBy: "<svg").count == html.components(separatedBy: "</svg>").count,
            "every chart closed, none closed early")
    }

    @Test func aRunShowsItsChartsAndEscapesEveryAnswer() throws {
        let html = HTMLReport.render(runs: [ReportFixtures.run()])
        expectSelfContained(html)
        #expect(html.contains("&lt;/svg&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("\\x1B[2J") && !html.contains("\u{1B}"))
        #expect(html.contains("Tell me about &lt;b&gt;bold&lt;/b&gt;"))
        for title in ["TTFT per turn", "Decode tokens/s per turn", "Prefill tokens/s per turn", "Cache reuse per turn"] {
            #expect(html.components(separatedBy: "<title>\(title)").count - 1 == 2, "\(title) for both suites")
        }
        #expect(html.contains("<polyline"))
        #expect(html.contains("1 of 2 gates failed."))
    }

    /// The reasons are on the page, not only in a tooltip, with the user message and the answer;
    /// a failed conversation-level check is among them (issue 31).
    @Test func aRunListsItsFailuresWithReasonsUserMessagesAndAnswers() throws {
        let html = HTMLReport.render(runs: [ReportFixtures.runWithConversationCheckFailed()])
        expectSelfContained(html)
        let section = try #require(html.components(separatedBy: "<h2 id=\"failures\">Failures (").dropFirst().first)
        let table = try #require(section.components(separatedBy: "</table>").first)
        #expect(section.hasPrefix("4)"), "the runtime failure, two failed turn checks and the conversation's check")
        #expect(table.contains("<td>conversation</td><td class=\"fail\">✗ length</td>"))
        #expect(table.contains("expected at most 10 words over the conversation, found 31"))
        #expect(table.contains("<div class=\"text\">Question 1?</div>") && table.contains("<div class=\"text\">Answer 1.</div>"))
        #expect(table.contains("the history needs 5000 tokens"))
        var synthetic = SyntheticRuns(seed: 1)
        let passing = synthetic.record(runId: "p", commit: nil)
        #expect(!HTMLReport.render(runs: [passing]).contains("id=\"failures\""), "nothing failed: no section")
    }

    /// Charts and tables give the same statistic: each point the turn's median over the repetitions,
    /// not repetition 1 (issue 31).
    @Test func chartsDrawTheMedianOverTheRepetitions() throws {
        var record = ReportFixtures.hugeRun(turns: 10, answerLength: 10)
        let first = record.suites[0].conversations[0]
        record.suites[0].conversations = [0.1, 0.5, 0.3].enumerated().map { index, ttft in
            var replay = first
            replay.repetition = index + 1
            replay.turns[0].replayed.metrics?.timeToFirstToken = ttft
            return replay
        }
        record.settings.repetitions = 3
        let html = HTMLReport.render(runs: [record])
        #expect(html.contains("#1: 300</title>") && !html.contains("#1: 100</title>"))
        #expect(html.contains("median over 3 repetitions"))
    }

    @Test func modelsSideBySideShareTheCharts() {
        let html = HTMLReport.render(runs: [ReportFixtures.run(model: "a.gguf"), ReportFixtures.run(model: "b.gguf", seed: 2)])
        #expect(html.contains("■ a.gguf") && html.contains("■ b.gguf"), "a legend names each model")
    }

    @Test func aThousandTurnRunStaysUnderTwoMegabytes() {
        let html = HTMLReport.render(runs: [ReportFixtures.hugeRun(turns: 1_000, answerLength: 4_000)])
        #expect(html.utf8.count < 2_000_000, "\(html.utf8.count) bytes")
        #expect(html.contains("shortened to"))
        expectSelfContained(html)
        let normal = HTMLReport.render(runs: [ReportFixtures.hugeRun(turns: 1_000, answerLength: 300)])
        #expect(normal.utf8.count < 2_000_000 && !normal.contains("shortened to"), "answers that fit are kept whole")
    }

    @Test func aComparisonShowsItsIntervalsAndAHistoryItsSteps() throws {
        let comparison = HTMLReport.render(comparison: ReportFixtures.comparison())
        expectSelfContained(comparison)
        #expect(comparison.contains("Change head vs base with 95% intervals"))
        #expect(comparison.contains("<circle") && comparison.contains("regression"))
        let history = ReportFixtures.history()
        let page = HTMLReport.render(history: history)
        expectSelfContained(page)
        #expect(page.contains("stroke-dasharray"), "the step is marked")
        #expect(page.contains("Bump llama.cpp &lt;/svg&gt;&lt;script&gt;x&lt;/script&gt;"))
        #expect(page.contains("<polygon"), "the spread band")
    }
}
