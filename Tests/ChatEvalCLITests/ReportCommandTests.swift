import ChatEvalTestKit
import Foundation
import Testing

/// `chateval report` without a model: recorded runs (a generated repository, hand-written result
/// files) rendered again — a comparison exactly as `compare` renders it but never a gate, a run
/// in every format, the per-turn CSV — and inputs it cannot report on refused with exit 2.
@Suite struct ReportCommandTests {
    let cli = CommandLineTests()
    typealias Repository = ReportOutputTests.Repository

    private func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private func revisions(_ repository: Repository) -> [String] {
        ["--repo", repository.url.path, "--reports", repository.url.appendingPathComponent("reports").path, "--no-project"]
    }

    /// One conversation of three turns whose answers a CSV writer gets wrong, the last turn
    /// failed in the runtime; `runId` tells records apart.
    private func record(runId: String = "r1") throws -> Data {
        func turn(_ index: Int, _ answer: String?, failed: Bool = false) -> [String: Any] {
            var turn: [String: Any] = [
                "index": index, "user": "Question \(index + 1), with a comma?", "messages_sent": 2 * index + 1,
                "status": failed ? "failed" : "answered",
                "checks": [["check": "icontains", "passed": !failed, "detail": "d", "weight": 1]],
            ]
            if let answer { turn["answer"] = answer }
            if failed {
                turn["failure"] = ["code": "context_overflow", "message": "the history needs 5000 tokens, the context holds 4096"]
            } else {
                turn["metrics"] = [
                    "prompt_tokens": 40, "reused_tokens": 0, "generated_tokens": 3, "time_to_first_token": 0.000012,
                    "prefill_time": 0.000011, "decode_time": 0.5, "total_time": 0.500012, "inter_token_latencies": [0.2, 0.3],
                    "stop_reason": "eog", "peak_resident_bytes": 264_355_840,
                ]
            }
            return turn
        }
        let conversation: [String: Any] = [
            "id": "c", "repetition": 1, "warmup": false, "checks": [],
            "options": [
                "max_tokens": 8, "temperature": 0, "top_p": 1, "top_k": 0, "seed": 42, "stop": [], "ignore_end_of_generation": false,
            ],
            "turns": [
                turn(0, "Paris, \"the\" capital\nof France"), turn(1, "naïve — 東京 🙂 \u{1B}[2J"), turn(2, nil, failed: true),
            ],
        ]
        var record = HandWrittenRecord.make(suites: [["name": "s", "path": "s.yaml", "conversations": [conversation], "gates": []]])
        record["run_id"] = runId
        return try JSONSerialization.data(withJSONObject: record)
    }

    @Test func aComparisonIsWhatCompareReportsButNeverAGate() async throws {
        let repository = try await Repository()
        let compare = try await cli.run(repository.compare, environment: ReportOutputTests.noSummary)
        #expect(compare.status == 1, "a regression: \(compare.stderr)")
        let csv = repository.file("turns.csv")
        let report = try await cli.run(
            ["report", "HEAD~1", "HEAD"] + revisions(repository) + ["--output", csv.path], environment: ReportOutputTests.noSummary)
        #expect(report.status == 0, "report never gates: \(report.stderr)")
        #expect(report.stdout.contains("REGRESSION"), "the verdict is in the report")
        #expect(report.stdout == compare.stdout, "the same renderer, the same report")
        #expect(report.stderr.isEmpty, "\(report.stderr)")

        // Both sides' runs, one row per measured turn: 16 conversations of 4 turns each.
        let rows = try StrictCSV.parse(try String(contentsOf: csv, encoding: .utf8))
        #expect(rows.first?.first == "run_id" && rows.first?.last == "answer")
        // Counts spelled out of #expect: its expansion took the type checker 9 s over `1 + 2 * 16 * 4`.
        let headerAndRows = 1 + 2 * 16 * 4
        #expect(rows.count == headerAndRows)
        let runIds: Set<String> = Set(rows.dropFirst().map { $0[0] }), commits: Set<String> = Set(rows.dropFirst().map { $0[1] })
        #expect(runIds.count == 2 && commits.count == 2, "two runs, two commits")

        let json = try await cli.run(["report", "HEAD~1", "HEAD", "--format", "json"] + revisions(repository))
        #expect(json.status == 0)
        let comparison = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(comparison["schema_version"] as? Int == 2 && comparison["suites"] != nil)
    }

    @Test func aRevisionIsReportedAsItsLatestRun() async throws {
        let repository = try await Repository()
        let head = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/git"), ["-C", repository.url.path, "rev-parse", "HEAD"])
        let outcome = try await cli.run(["report", "HEAD", "--format", "json"] + revisions(repository))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect((record["git"] as? [String: Any])?["commit"] as? String == head.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(record["run_id"] as? String == "r0000102", "the latest of the commit's three runs")
    }

    /// Every format from one result file: a file holds what standard output shows (which adds a
    /// line break after text, Markdown and JSON), and the CSV reads back with each answer whole —
    /// a terminal's escape shown, not obeyed — and the failed turn's missing values empty.
    @Test func aResultFileInEveryFormat() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = directory.appendingPathComponent("run.json")
        try record().write(to: result)
        for format in ["terminal": "txt", "json": "json", "markdown": "md", "junit": "xml", "html": "html", "csv": "csv"] {
            let file = directory.appendingPathComponent("report.\(format.value)")
            let written = try await cli.run(["report", result.path, "--output", file.path], in: directory)
            #expect(written.status == 0, "\(format.key): \(written.stderr)")
            let shown = try await cli.run(
                ["report", result.path, "--format", format.key], environment: ReportOutputTests.noSummary, in: directory)
            #expect(shown.status == 0, "\(format.key): \(shown.stderr)")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(shown.stdout == text + (["txt", "md", "json"].contains(format.value) ? "\n" : ""), "\(format.key)")
            if format.key == "terminal" { #expect(written.stdout == shown.stdout, "without --format, the terminal report") }
        }

        let rows = try StrictCSV.parse(try String(contentsOf: directory.appendingPathComponent("report.csv"), encoding: .utf8))
        #expect(rows.count == 4, "a header and three turns")
        #expect(rows[1][21] == "Paris, \"the\" capital\nof France")
        #expect(rows[2][21] == "naïve — 東京 🙂 \\e[2J", "the escape shown as text")
        #expect(Array(rows[1][0...8]) == ["r1", "", "m.gguf", "s", "c", "1", "1", "answered", ""])
        #expect(rows[1][9] == "0.000012" && rows[1][12] == "0.25" && rows[1][18] == "264355840" && rows[1][19...20] == ["1", "1"])
        #expect(Array(rows[3][7...8]) == ["failed", "context_overflow"])
        #expect(rows[3][9...18].allSatisfy(\.isEmpty) && rows[3][21].isEmpty, "no metrics, no answer: empty fields")
        #expect(rows[3][19...20] == ["0", "1"])
    }

    @Test func inputsItCannotReportOnAreExit2WithWhatToDo() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try await cli.run(["report", "no-such-run.json"], in: directory)
        #expect(missing.status == 2)
        #expect(
            missing.stderr.contains("'no-such-run.json' is neither a result file nor a folder, and there is no git repository"),
            "\(missing.stderr)")
        let notAResult = try await cli.run(["report", CommandLineTests.packageRoot.appendingPathComponent("Package.swift").path])
        #expect(notAResult.status == 2 && notAResult.stderr.contains("is not a ChatEval result file"), "\(notAResult.stderr)")
        let three = try await cli.run(["report", "a", "b", "c"], in: directory)
        #expect(three.status == 2 && three.stderr.contains("report takes one input"), "\(three.stderr)")

        // A folder of two runs that were not made side by side: which one is meant?
        try record(runId: "r1").write(to: directory.appendingPathComponent("a.json"))
        try record(runId: "r2").write(to: directory.appendingPathComponent("b.json"))
        let two = try await cli.run(["report", directory.path])
        #expect(two.status == 2)
        #expect(two.stderr.contains("holds 2 runs, not one run or one side-by-side group; name one result file"), "\(two.stderr)")

        let repository = try await Repository()
        let commits = try await cli.run(["report", repository.url.appendingPathComponent("reports").path])
        #expect(commits.status == 2 && commits.stderr.contains("holds runs of 2 commits"), "\(commits.stderr)")
    }

    /// `record(runId:)` as a member of side-by-side group `group` (place `index` of 2), as JSON.
    private func member(runId: String, group: String?, index: Int) throws -> Data {
        var record = try #require(try JSONSerialization.jsonObject(with: try self.record(runId: runId)) as? [String: Any])
        if let group { record["group"] = ["id": group, "index": index, "count": 2, "label": "model \(index)"] }
        return try JSONSerialization.data(withJSONObject: record)
    }

    private func reportedRunIds(_ outcome: CommandLineTests.Outcome) throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
        let records = (json as? [[String: Any]]) ?? [(json as? [String: Any]) ?? [:]]
        return records.compactMap { $0["run_id"] as? String }
    }

    /// One model's file of a two-model run is reported with its group, found beside it (issue 31).
    @Test func oneModelsFileIsReportedWithTheRestOfItsGroup() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try member(runId: "a", group: "g1", index: 1).write(to: directory.appendingPathComponent("20261123T100000Z-nogit-a.json"))
        try member(runId: "b", group: "g1", index: 2).write(to: directory.appendingPathComponent("20261123T100100Z-nogit-b.json"))
        try member(runId: "c", group: nil, index: 0).write(to: directory.appendingPathComponent("20261123T100200Z-nogit-c.json"))
        let second = try await cli.run([
            "report", directory.appendingPathComponent("20261123T100100Z-nogit-b.json").path, "--format", "json",
        ])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try reportedRunIds(second) == ["a", "b"], "the group, in its order")
        let alone = try await cli.run([
            "report", directory.appendingPathComponent("20261123T100200Z-nogit-c.json").path, "--format", "json",
        ])
        #expect(try reportedRunIds(alone) == ["c"])
    }

    /// `report --latest`: the reports folder's newest run, with its group.
    @Test func latestIsTheNewestRunOfTheReportsFolder() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try await cli.run(["report", "--latest", "--reports", directory.path, "--no-project"], in: directory)
        #expect(empty.status == 2 && empty.stderr.contains("holds no complete ChatEval result files"), "\(empty.stderr)")
        try member(runId: "old", group: nil, index: 0).write(to: directory.appendingPathComponent("20261123T090000Z-nogit-old.json"))
        try member(runId: "a", group: "g1", index: 1).write(to: directory.appendingPathComponent("20261123T100000Z-nogit-a.json"))
        try member(runId: "b", group: "g1", index: 2).write(to: directory.appendingPathComponent("20261123T100100Z-nogit-b.json"))
        let latest = try await cli.run(
            ["report", "--latest", "--reports", directory.path, "--no-project", "--format", "json"], in: directory)
        #expect(latest.status == 0, "\(latest.stderr)")
        #expect(try reportedRunIds(latest) == ["a", "b"])
        let both = try await cli.run(["report", "--latest", "x.json"], in: directory)
        #expect(both.status == 2 && both.stderr.contains("give no input with it"), "\(both.stderr)")
    }

    /// `history --format csv`, offered by `--help`, is the per-commit series table (issue 31).
    @Test func aHistoryInCSVIsAPerCommitSeriesTable() async throws {
        let repository = try await Repository()
        let outcome = try await cli.run(
            ["history", "--format", "csv"] + revisions(repository), environment: ReportOutputTests.noSummary)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let rows = try StrictCSV.parse(outcome.stdout)
        #expect(rows.first?.first == "suite" && rows.first?.contains("median") == true)
        // Two commits with results, for TTFT and the pass rate.
        #expect(Set(rows.dropFirst().map { $0[8] }).count == 2 && Set(rows.dropFirst().map { $0[6] }) == ["ttft", "pass-rate"])
    }
}

/// `chateval report` of what a real run wrote: each format's file again, byte for byte, from the
/// result file; models side by side reported as their group from the folder. Needs CHATEVAL_MODEL.
@Suite(.serialized, .tags(.realModel), .usesAllCores) struct RealModelReportTests {
    let cli = CommandLineTests()
    static let extensions = ["txt", "json", "md", "xml", "html", "csv"]

    private func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("run"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("again"), withIntermediateDirectories: true)
        // Checks may fail (a 6-token answer): the gate lets them.
        try """
        name: recorded
        gates: {min_pass_rate: 0}
        defaults: {max_tokens: 6}
        conversations:
          - id: colours
            turns:
              - user: Name a colour.
                checks: [{type: icontains, value: blue}]
              - user: Name another one, and a third, in quotes.
                checks: [{type: icontains, value: red}]
        """.write(to: directory.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        return directory
    }

    /// Runs `arguments` after `run s.yaml`, writing every format into run/, and returns the
    /// result files.
    private func run(_ arguments: [String], in directory: URL) async throws -> [URL] {
        let outputs = Self.extensions.flatMap { ["--output", directory.appendingPathComponent("run/report.\($0)").path] }
        let outcome = try await cli.run(
            ["run", directory.appendingPathComponent("s.yaml").path, "--reports", directory.appendingPathComponent("results").path]
                + arguments + outputs,
            environment: ["CI": "true"], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let results = directory.appendingPathComponent("results")
        return try FileManager.default.contentsOfDirectory(atPath: results.path).filter { $0.hasSuffix(".json") }.sorted()
            .map { results.appendingPathComponent($0) }
    }

    /// `report INPUT --output again/report.EXT` for every extension, each the same bytes as the run's.
    private func expectTheSameReports(of input: String, in directory: URL) async throws {
        for name in Self.extensions {
            let again = directory.appendingPathComponent("again/report.\(name)")
            let outcome = try await cli.run(["report", input, "--output", again.path], in: directory)
            #expect(outcome.status == 0, "\(name): \(outcome.stderr)")
            let written = try Data(contentsOf: directory.appendingPathComponent("run/report.\(name)"))
            #expect(try Data(contentsOf: again) == written, "report.\(name) is what the run wrote")
        }
    }

    @Test func aResultFileGivesBackEveryReportItsRunWrote() async throws {
        let model = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = try await run(["--model", model, "--repeat", "2", "--warmup", "1"], in: directory)
        let result = try #require(results.first)
        try await expectTheSameReports(of: result.path, in: directory)
        let rows = try StrictCSV.parse(try String(contentsOf: directory.appendingPathComponent("run/report.csv"), encoding: .utf8))
        let headerAndRows = 1 + 2 * 2
        #expect(rows.count == headerAndRows, "two measured replays of two turns; the warm-up is not listed")
        let replayTurns: [String] = rows.dropFirst().map { $0[5] + "." + $0[6] }
        #expect(replayTurns == ["1.1", "1.2", "2.1", "2.2"])
    }

    @Test func modelsSideBySideAreReportedAsTheirGroup() async throws {
        let model = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = try await run(["--model", model, "--ctx-size", "2048", "--ctx-size", "4096", "--repeat", "1"], in: directory)
        #expect(results.count == 2)
        try await expectTheSameReports(of: directory.appendingPathComponent("results").path, in: directory)
        let rows = try StrictCSV.parse(try String(contentsOf: directory.appendingPathComponent("run/report.csv"), encoding: .utf8))
        let headerAndRows = 1 + 2 * 2
        #expect(rows.count == headerAndRows)
        let labels: [String] = rows.dropFirst().map { $0[2] }
        #expect(labels.allSatisfy { $0.hasSuffix("(ctx 2048)") || $0.hasSuffix("(ctx 4096)") }, "\(rows)")
    }
}
