import ChatEvalCore
import ChatEvalReport
import Foundation
import Testing

@testable import ChatEvalCompare

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

    /// The JSON spellings with an underscore, which no report may print to people.
    static let rawSpellings = ChangeVerdict.allCases.map(\.rawValue).filter { $0.contains("_") }

    /// `text` without its HTML class attributes: a class (`not_worse`) styles a row, no one reads it.
    static func withoutClasses(_ text: String) -> String {
        text.replacingOccurrences(of: #"class="[^"]*""#, with: "", options: .regularExpression)
    }

    /// Each verdict in turn on the decode rate, in every report that names it (terminal, Markdown,
    /// HTML, JUnit): in its words, never its JSON spelling. Flaky and undecided are counts'
    /// verdicts a metric never has; the reports' switches name them all the same.
    @Test func everyVerdictOnAMetricIsPrintedInItsWordsInEveryReport() throws {
        let fixture = ReportFixtures.comparison()
        let decode = try #require(fixture.suites[0].metrics.firstIndex { $0.metric == .decodeTokensPerSecond })
        for verdict in ChangeVerdict.allCases {
            var comparison = fixture
            comparison.suites[0].metrics[decode].verdict = verdict
            let reports = [
                ("terminal", ComparisonReport.render(comparison, verbose: true)),
                ("markdown", MarkdownReport.render(comparison: comparison)),
                ("html", Self.withoutClasses(HTMLReport.render(comparison: comparison))),
                ("junit", JUnitReport.render(comparison: comparison)),
            ]
            for (name, text) in reports {
                #expect(text.contains(verdict.words), "\(name): \(verdict)")
                for raw in Self.rawSpellings { #expect(!text.contains(raw), "\(name) prints \(raw) for \(verdict)") }
            }
        }
    }

    /// The variant matrix's verdicts (regression, improvement, undecided) as its reports show them:
    /// their symbols in text, and in HTML a class the page's stylesheet colours and their words
    /// as the cell's title.
    @Test func theMatrixShowsItsVerdictsAsSymbolsAndStyledCellsNamedInWords() throws {
        let verdicts: [ChangeVerdict] = [.regression, .improvement, .undecided]
        let cells = verdicts.map {
            VariantMatrix.Cell(checksPassed: 1, checksTotal: 2, timeToFirstToken: 0.2, checks: $0, timeToFirstTokenVerdict: nil)
        }
        let matrix = VariantMatrix(
            columns: (0...verdicts.count).map { VariantMatrix.Column(label: "v\($0)", variant: "v\($0)", record: 0) },
            rows: [
                VariantMatrix.Row(
                    suite: "s", conversation: "c", turn: 1,
                    cells: [VariantMatrix.Cell(checksPassed: 2, checksTotal: 2, timeToFirstToken: 0.2)] + cells)
            ],
            comparisons: [], errorRatePerComparison: 0.01)
        let text = MatrixReport.render(matrix)
        #expect(text.contains("1/2▼") && text.contains("1/2▲") && text.contains("1/2?"), "\(text)")
        let html = MatrixReport.html(matrix)
        let stylesheet = HTMLReport.render(runs: [ReportFixtures.run()])
        for verdict in verdicts {
            #expect(html.contains("class=\"\(verdict.rawValue)\" title=\"\(verdict.words)\""), "\(verdict)")
            #expect(stylesheet.contains("table.matrix span.\(verdict.rawValue){"), "no style for a \(verdict.words) cell")
        }
    }
}
