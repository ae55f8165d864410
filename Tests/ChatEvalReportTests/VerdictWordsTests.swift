import ChatEvalCompare
import ChatEvalCore
import ChatEvalReport
import Testing

/// Verdicts as a reader meets them: in words in every report ("not worse", "not gated"; the JSON
/// keeps its stable raw values, `not_worse`, see `RunComparatorTests`).
@Suite struct VerdictWordsTests {
    /// The fixture comparison with its decode rate "not worse" and its reuse efficiency "not gated"
    /// (issue 29, items 3 and 10).
    static func comparison() throws -> Comparison {
        var comparison = ReportFixtures.comparison()
        let notGated = try #require(ChangeVerdict(rawValue: "not_gated"), "a metric without a threshold has a verdict of its own")
        for index in comparison.suites[0].metrics.indices {
            switch comparison.suites[0].metrics[index].metric {
            case .decodeTokensPerSecond: comparison.suites[0].metrics[index].verdict = .notWorse
            case .reuseEfficiency: comparison.suites[0].metrics[index].verdict = notGated
            default: break
            }
        }
        return comparison
    }

    @Test func theTerminalMarkdownAndHTMLReportsSayTheVerdictsInWords() throws {
        let comparison = try Self.comparison()
        let reports = [
            ("terminal", ComparisonReport.render(comparison, verbose: false)),
            ("markdown", MarkdownReport.render(comparison: comparison)),
            ("html", HTMLReport.render(comparison: comparison).replacingOccurrences(of: "class=\"not_", with: "class=\"")),
        ]
        for (name, text) in reports {
            #expect(text.contains("not worse") && text.contains("not gated"), "\(name)")
            #expect(!text.contains("not_worse") && !text.contains("not_gated") && !text.contains("not_measured"), "\(name)")
        }
    }
}
