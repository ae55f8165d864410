import ChatEvalTestKit
import Foundation
import Testing

/// `--format` and `--output` on `compare` (and `history`): each format goes where it is asked —
/// standard output, a file by its extension, or the job summary `$GITHUB_STEP_SUMMARY` names —
/// and standard output holds only the one format chosen for it. Runs recorded for two commits of
/// a generated repository, TTFT 30% slower on the second: a regression (exit 1).
@Suite struct ReportOutputTests {
    let cli = CommandLineTests()

    final class Repository {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-output-\(UUID().uuidString)")
        init() async throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try await SyntheticHistory.make(in: url, commits: 2, runsPerCommit: 3, stepAt: 1, stepFactor: 1.3, seed: 9, conversations: 16)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func file(_ name: String) -> URL { url.appendingPathComponent(name) }
        func text(_ name: String) throws -> String { try String(contentsOf: file(name), encoding: .utf8) }
        var compare: [String] {
            ["compare", "HEAD~1", "HEAD", "--repo", url.path, "--reports", url.appendingPathComponent("reports").path, "--no-project"]
        }
    }

    /// No job summary, whatever the environment the tests run in (GitHub Actions sets one).
    static let noSummary = ["GITHUB_STEP_SUMMARY": ""]

    @Test func jsonOnStandardOutputAndEachFileInTheFormatItsExtensionNames() async throws {
        let repository = try await Repository()
        let outcome = try await cli.run(
            repository.compare + [
                "--format", "json", "--output", repository.file("c.xml").path,
                "--output", repository.file("c.html").path, "--output", repository.file("c.md").path,
            ],
            environment: Self.noSummary)
        #expect(outcome.status == 1, "a regression: \(outcome.stderr)")
        let comparison = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "standard output is the JSON alone")
        #expect((comparison["suites"] as? [[String: Any]])?.first?["name"] as? String == "smoke")
        #expect(try repository.text("c.xml").hasPrefix("<?xml") && repository.text("c.xml").contains("<failure type=\"regression\""))
        #expect(try repository.text("c.html").contains("<svg") && repository.text("c.html").hasPrefix("<!DOCTYPE html>"))
        #expect(try repository.text("c.md").hasPrefix("## ChatEval comparison"))
        #expect(outcome.stderr.contains("REGRESSION"), "the exit reason is still said")
    }

    @Test func markdownGoesToTheJobSummaryAppendedAndTheTerminalReportToStandardOutput() async throws {
        let repository = try await Repository()
        let summary = repository.file("summary.md")
        try Data("## An earlier step's summary\n".utf8).write(to: summary)
        for _ in 0..<2 {
            let outcome = try await cli.run(
                repository.compare + ["--format", "markdown"], environment: ["GITHUB_STEP_SUMMARY": summary.path])
            #expect(outcome.status == 1)
            #expect(outcome.stdout.contains("REGRESSION") && !outcome.stdout.contains("## ChatEval"), "the terminal report in the log")
        }
        let written = try repository.text("summary.md")
        #expect(written.hasPrefix("## An earlier step's summary\n"), "appended, never replaced")
        #expect(written.components(separatedBy: "## ChatEval comparison").count - 1 == 2)
        #expect(written.contains("| metric | base | head | change | interval | n | verdict |"))

        let plain = try await cli.run(repository.compare + ["--format", "markdown"], environment: Self.noSummary)
        #expect(plain.stdout.hasPrefix("## ChatEval comparison"), "without a job summary, on standard output")
    }

    @Test func aReportFileThatCannotBeWrittenIsExit3() async throws {
        let repository = try await Repository()
        let outcome = try await cli.run(repository.compare + ["--output", "/no/such/folder/c.html"], environment: Self.noSummary)
        #expect(outcome.status == 3)
        #expect(outcome.stderr.contains("cannot write the html report"), "\(outcome.stderr)")
        #expect(outcome.stdout.contains("REGRESSION"), "the terminal report came first")
    }

    @Test func historyWritesEveryFormat() async throws {
        let repository = try await Repository()
        let outcome = try await cli.run(
            [
                "history", "--repo", repository.url.path, "--reports", repository.url.appendingPathComponent("reports").path,
                "--no-project", "--format", "junit", "--output", repository.file("h.html").path, "--output", repository.file("h.json").path,
            ],
            environment: Self.noSummary)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("<?xml") && outcome.stdout.contains("<testsuites>"))
        #expect(try repository.text("h.html").contains("<svg"))
        let history = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: repository.file("h.json"))) as? [String: Any])
        #expect((history["commits"] as? [Any])?.count == 2)
    }
}
