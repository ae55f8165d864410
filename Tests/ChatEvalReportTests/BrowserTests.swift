import ChatEvalReport
import ChatEvalTestKit
import Foundation
import Testing

/// The HTML reports opened in a real browser (headless Chromium): the DOM it builds has the
/// charts and no script, a model answer holding `<script>` and `</svg>` is a text node, and a
/// screenshot of each page is left in `.build/report-screenshots/` for a person to look at.
///
/// Runs wherever Chromium is installed: `make test-html` installs it (Debian's package, about
/// 75 s to install here) and runs these alone; `make test` runs them when Chromium is there and
/// leaves them out on a machine without it (a fresh CI runner), to keep CI short.
@Suite(.enabled(if: Chromium.path != nil, "Chromium is not installed: make test-html installs it"))
struct BrowserTests {
    static let screenshots = ReportFixtures.packageRoot.appendingPathComponent(".build/report-screenshots")

    /// Chromium's DOM of `html` after parsing, and a screenshot at `name`.png.
    func open(_ html: String, name: String, height: Int = 1600) async throws -> String {
        let chromium = try #require(Chromium.path)
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
        let page = Self.screenshots.appendingPathComponent("\(name).html")
        try Data(html.utf8).write(to: page)
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions"]
        let dom = try await ProcessRunner.run(chromium, flags + ["--dump-dom", page.absoluteString])
        try #require(dom.status == 0, "chromium --dump-dom: \(dom.stderr)")
        let shot = try await ProcessRunner.run(
            chromium,
            flags + [
                "--window-size=1200,\(height)", "--screenshot=\(Self.screenshots.appendingPathComponent("\(name).png").path)",
                page.absoluteString,
            ])
        #expect(shot.status == 0, "chromium --screenshot: \(shot.stderr)")
        #expect(FileManager.default.fileExists(atPath: Self.screenshots.appendingPathComponent("\(name).png").path))
        return dom.stdout
    }

    @Test func aRunsAnswersAreTextAndItsChartsAreDrawn() async throws {
        let dom = try await open(
            HTMLReport.render(runs: [ReportFixtures.run(model: "a.gguf"), ReportFixtures.run(model: "b.gguf", seed: 2)]), name: "run",
            height: 2400)
        #expect(!dom.lowercased().contains("<script"), "the browser built no script element")
        // The answer's markup survived as text: serialised back with its brackets escaped.
        #expect(dom.contains("Sure &lt;/svg&gt;&lt;script&gt;alert('x')&lt;/script&gt;"))
        #expect(!dom.contains("<img src=\"x\""))
        #expect(dom.components(separatedBy: "<svg").count - 1 == 8, "four charts for each of two suites")
        #expect(dom.components(separatedBy: "<polyline").count - 1 >= 8)
    }

    /// The charts as they read (looked at in `.build/report-screenshots/charts.png`): one polyline
    /// per model and conversation, a marker per value, the y axis from 0 on round ticks.
    @Test func theChartsReadInABrowser() async throws {
        let run = ReportFixtures.run(model: "a.gguf")
        let dom = try await open(HTMLReport.render(runs: [run]), name: "charts", height: 1400)
        let charts = dom.components(separatedBy: "<svg").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
        let ttft = try #require(charts.first { $0.contains("<title>TTFT per turn</title>") })
        // Two suites of two conversations of three turns: each suite's chart has two polylines of three points.
        let polylines = ttft.components(separatedBy: "<polyline points=\"").dropFirst().map {
            $0.prefix { $0 != "\"" }.split(separator: " ").count
        }
        #expect(polylines.allSatisfy { $0 <= 3 }, "\(polylines)")
        #expect(ttft.contains("class=\"tick\" text-anchor=\"end\">0</text>"))
        #expect(ttft.components(separatedBy: "<circle").count - 1 >= 5)
    }

    /// The failures section as a reader meets it (looked at in `.build/report-screenshots/failures.png`):
    /// a failed conversation-level check with its reason on the page, beside the turn checks' user
    /// messages and answers, none of it only in a tooltip (issue 31).
    @Test func aFailedConversationCheckIsOnThePageWithItsReason() async throws {
        let dom = try await open(HTMLReport.render(runs: [ReportFixtures.runWithConversationCheckFailed()]), name: "failures", height: 900)
        let section = try #require(dom.components(separatedBy: "id=\"failures\"").dropFirst().first)
        let table = try #require(section.components(separatedBy: "</table>").first)
        #expect(table.contains("expected at most 10 words over the conversation, found 31"))
        #expect(table.contains("✗ length") && table.contains("Question 1?") && table.contains("Answer 1."))
        #expect(!dom.lowercased().contains("<script"))
    }

    @Test func aComparisonAndAHistoryAreDrawn() async throws {
        let comparison = try await open(HTMLReport.render(comparison: ReportFixtures.comparison()), name: "comparison")
        #expect(comparison.contains("<svg") && !comparison.lowercased().contains("<script"))
        let history = try await open(HTMLReport.render(history: ReportFixtures.history()), name: "history")
        #expect(history.components(separatedBy: "<svg").count - 1 == 2, "TTFT and the pass rate")
        #expect(history.contains("stroke-dasharray"))
        #expect(history.contains("Bump llama.cpp &lt;/svg&gt;&lt;script&gt;x&lt;/script&gt;"))
    }
}

/// The Chromium the browser tests use.
enum Chromium {
    /// CHATEVAL_CHROMIUM, else `chromium` on the PATH; nil without either.
    static let path: URL? = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CHATEVAL_CHROMIUM"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("chromium") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
