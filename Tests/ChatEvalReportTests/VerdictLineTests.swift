import ChatEvalCompare
import ChatEvalCore
import ChatEvalReport
import ChatEvalTestKit
import Foundation
import Testing

/// The first line of a comparison names every reason its job fails (issue 48, item 3): a
/// regression, the head's own suite gates, a comparison not decided under `--undecided fail`.
@Suite struct VerdictLineTests {
    /// One replay a side of identical synthetic runs: no regression, not decided.
    static func undecided() -> Comparison {
        var synthetic = SyntheticRuns(seed: 9, noise: 0.05)
        let base = synthetic.record(runId: "base", commit: SyntheticRuns.commitID(1), conversations: 2, turns: 2, ttft: 0.2)
        let head = synthetic.record(runId: "head", commit: SyntheticRuns.commitID(2), conversations: 2, turns: 2, ttft: 0.2)
        return RunComparator.compare(
            base: ComparedRuns(runs: [base], sources: ["b.json"]), head: ComparedRuns(runs: [head], sources: ["h.json"]),
            settings: .default)
    }

    /// Issue 44: the whole comparison in one line, HPT-style, comes right after the verdict in
    /// every report, and each suite's first among its lines.
    @Test func theHPTLineFollowsTheVerdictAndLeadsEachSuite() throws {
        let comparison = ReportFixtures.comparison()  // head 30% slower, ten runs a side
        let hpt = try #require(comparison.hpt)
        #expect(hpt.probabilitySlower > 0.95 && hpt.slowerAtLeast != nil, "\(hpt)")
        let lines = ComparisonReport.render(comparison, verbose: false).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == ComparisonReport.headline(comparison)[...])
        #expect(
            lines[1].hasPrefix("HPT       9") && lines[1].contains("% likely slower; 95% likely ≥ 1.") && lines[1].contains("× slower"),
            "\(lines[1])")
        let suite = try #require(lines.firstIndex { $0 == "suite smoke" })
        #expect(lines[suite + 1].hasPrefix("  HPT 9"), "\(lines[suite + 1])")
        let markdown = MarkdownReport.render(comparison: comparison)
        #expect(markdown.contains("**\n\nHPT: 9"), "\(markdown)")
        let html = HTMLReport.render(comparison: comparison)
        let verdictEnd = try #require(html.range(of: "</p>", range: html.range(of: "class=\"verdict")!.upperBound..<html.endIndex))
        #expect(html[verdictEnd.upperBound...].hasPrefix("<p class=\"hpt\"><strong>HPT:</strong> 9"))
    }

    @Test func aFailedSuiteGateIsOnTheFirstLineOfEveryReport() throws {
        var comparison = Self.undecided()
        #expect(!comparison.hasRegression && !comparison.isDecided && comparison.failingReasons.isEmpty)
        #expect(!ComparisonReport.headline(comparison).contains("gate"))
        comparison.headGatesFailed = ["smoke: ttft p95 ≤ 2, found 2.41 over 9 turns"]
        let line = ComparisonReport.headline(comparison)
        #expect(line.hasPrefix("NOT DECIDED") && line.contains("The head's suite gate failed: smoke: ttft p95 ≤ 2, found 2.41"), "\(line)")
        #expect(comparison.failingReasons.count == 1)
        #expect(ComparisonReport.render(comparison, verbose: false).split(separator: "\n").first.map(String.init) == line)
        #expect(MarkdownReport.render(comparison: comparison).contains("❌ **NOT DECIDED"))
        let html = HTMLReport.render(comparison: comparison)
        #expect(html.contains("suite gate failed: smoke: ttft p95"), "\(html.prefix(2000))")
    }

    @Test func undecidedFailIsSaidWhereItFailsTheJob() {
        var comparison = Self.undecided()
        comparison.undecidedFails = true
        let line = ComparisonReport.headline(comparison)
        #expect(line.hasPrefix("NOT DECIDED") && line.hasSuffix("It fails the job (--undecided fail)."), "\(line)")
        #expect(comparison.failingReasons == ["not decided, with --undecided fail"])
        #expect(MarkdownReport.render(comparison: comparison).contains("❌"))
    }
}
