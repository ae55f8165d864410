import ChatEvalOpenAI
import ChatEvalTestKit
import Foundation
import Testing

/// What a hostile user, file or server found (issue 18), each reached through the command line
/// where it was found and failing before its fix: bounded expansion, records and indexes that are
/// validated, secrets never written, terminal-safe report files.
@Suite struct HostileInputTests {
    let cli = CommandLineTests()

    private func folder(_ files: [String: String] = [:]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return directory
    }

    // MARK: Placeholder expansion

    /// Each turn quoting the previous one 100 times: 7 KB that `validate` accepted, and `grade` and
    /// `run` aborted allocating 8.7 GB.
    @Test func aSuiteWhoseQuotesExplodeIsALocatedError() async throws {
        let quotes = { (turn: Int) in (0..<100).map { _ in "{{turn\(turn).user}}" }.joined() }
        let suite =
            "name: boom\nconversations:\n  - id: c\n    turns:\n      - \"x\"\n"
            + (2...5).map { "      - \"\(quotes($0 - 1))\"\n" }.joined()
        let directory = try folder(["boom.yaml": suite])
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["validate", "boom.yaml"], in: directory)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("boom.yaml:"), "located: \(outcome.stderr)")
        #expect(outcome.stderr.contains("turn 5 of conversation 'c' expands to at least 95 MiB"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Fatal error"))
    }

    /// A megabyte variable quoted ten thousand times grows linearly to 10 GB.
    @Test func aLargeVariableQuotedOftenIsALocatedError() async throws {
        let suite =
            "name: big\nconversations:\n  - id: c\n    vars: {x: \(String(repeating: "y", count: 200_000))}\n    turns:\n      - \""
            + String(repeating: "{{vars.x}}", count: 10) + "\"\n"
        let directory = try folder(["big.yaml": suite])
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["validate", "big.yaml"], in: directory)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("expands to at least 1.9 MiB"), "\(outcome.stderr)")
    }

    /// Answers amplify through `{{turnN.answer}}`, which only the run knows: the turn fails, typed,
    /// and the run goes on.
    @Test func answersQuotedPastTheLimitFailTheTurnNotTheProcess() async throws {
        let answer = String(repeating: "a", count: 400_000)
        let suite =
            "name: echo\nconversations:\n  - id: c\n    turns:\n      - Say it.\n"
            + "      - \"{{turn1.answer}} {{turn1.answer}} {{turn1.answer}}\"\n"
        let answers =
            #"{"conversation": "c", "turn": 1, "answer": "\#(answer)"}"# + "\n" + #"{"conversation": "c", "turn": 2, "answer": "ok"}"#
        let directory = try folder(["echo.yaml": suite, "a.jsonl": answers])
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["grade", "echo.yaml", "--answers", "a.jsonl"], in: directory)
        #expect(outcome.status != 134 && !outcome.stderr.contains("Fatal error"), "\(outcome.stderr)")
    }

    // MARK: Records validated, never trusted

    private func record(_ change: (inout [String: Any]) -> Void) throws -> String {
        try HandWrittenRecord.oneTurn(change)
    }

    /// schema_version was never compared: 0, −1, 2 and 99 were read as version 1.
    @Test(arguments: [0, -1, 2, 99])
    func anUnknownSchemaVersionIsRefused(_ version: Int) async throws {
        let directory = try folder(["a.json": try record { _ in }, "b.json": try record { $0["schema_version"] = version }])
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["compare", "a.json", "b.json", "--no-project"], in: directory)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("schema_version: \(version) is not a version this ChatEval reads (it reads 1)"), "\(outcome.stderr)")
    }

    /// Two runs on a runner busy throughout: every replay left out. The gate said "No regression."
    /// and exited 0, a pass it had not measured.
    @Test func aComparisonThatMeasuredNothingHasNoVerdict() async throws {
        let busy = try record { record in
            var suites = record["suites"] as! [[String: Any]]
            var conversations = suites[0]["conversations"] as! [[String: Any]]
            conversations[0]["left_out"] = "other processes used 1.01 cores while this repetition was measured; left out"
            suites[0]["conversations"] = conversations
            record["suites"] = suites
        }
        let directory = try folder(["a.json": busy, "b.json": busy])
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["compare", "a.json", "b.json", "--no-project"], in: directory)
        #expect(outcome.status == 4, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("NO VERDICT: nothing was measured on both sides (2 replays left out"), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("--busy-threshold off"), "\(outcome.stderr)")
        // The same runs with the screen off are compared (one replay a side: nothing to call, but measured).
        let kept = try await cli.run(["compare", "a.json", "b.json", "--no-project", "--busy-threshold", "off"], in: directory)
        #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
        // Not a pass in words: the first line says it could not decide.
        #expect(kept.stdout.hasPrefix("NOT DECIDED: no regression shown"), "\(kept.stdout)")
        // A CI that accepts only what was shown not worse says so, and fails.
        let strict = try await cli.run(
            ["compare", "a.json", "b.json", "--no-project", "--busy-threshold", "off", "--undecided", "fail"], in: directory)
        #expect(strict.status == 1, "\(strict.stdout)\(strict.stderr)")
        #expect(strict.stderr.contains("--undecided fail"), "\(strict.stderr)")
    }

    /// `time_to_first_token: -1` showed as −1000 ms in a comparison.
    @Test func aNegativeTimeIsRefusedWithItsField() async throws {
        let bad = try record { record in
            var suites = record["suites"] as! [[String: Any]]
            var conversations = suites[0]["conversations"] as! [[String: Any]]
            var turns = conversations[0]["turns"] as! [[String: Any]]
            var metrics = turns[0]["metrics"] as! [String: Any]
            metrics["time_to_first_token"] = -1
            turns[0]["metrics"] = metrics
            conversations[0]["turns"] = turns
            suites[0]["conversations"] = conversations
            record["suites"] = suites
        }
        let directory = try folder(["a.json": try record { _ in }, "b.json": bad])
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["compare", "a.json", "b.json", "--no-project"], in: directory)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("b.json"), "names the file: \(outcome.stderr)")
        #expect(
            outcome.stderr.contains("suites[0].conversations[0].turns[0].metrics.time_to_first_token: -1.0 is not a time"),
            "\(outcome.stderr)")
    }

    /// Answers files of 70–180 MB took seconds to refuse: now by their size, unread.
    @Test func anOversizeAnswersFileIsRefusedByItsSize() async throws {
        let directory = try folder(["s.yaml": "name: s\nconversations: [{id: c, turns: [Hi]}]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let answers = directory.appendingPathComponent("a.jsonl")
        _ = FileManager.default.createFile(atPath: answers.path, contents: nil)
        let handle = try FileHandle(forWritingTo: answers)
        try handle.truncate(atOffset: 80 << 20)  // a sparse 80 MiB file
        try handle.close()
        // Behaviour, not time: the message carries the size from the file's attributes, which only the
        // pre-read check reports (a read would fail on the file's content instead).
        let outcome = try await cli.run(["grade", "s.yaml", "--answers", "a.jsonl"], in: directory)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("the answers file is 80 MiB; at most 64 MiB are read"), "\(outcome.stderr)")
    }

    // MARK: Secrets and terminals

    /// `--base-url http://user:password@host/v1` kept the password in the recorded command.
    @Test func credentialsInTheCommandAreNotRecorded() async throws {
        let directory = try folder(["s.yaml": "name: s\nconversations: [{id: c, turns: [Hi]}]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try await LocalLlamaServer.freePort()
        _ = try await cli.run(
            [
                "run", "s.yaml", "--no-project", "--runtime", "openai", "--reports", "out", "--retries", "0",
                "--base-url", "http://alice:hunter2secret@127.0.0.1:\(port)/v1?api_key=sk-abcdef123456&x=1",
            ], in: directory)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)) ?? []
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent("out/\(file)"), encoding: .utf8)
            #expect(!text.contains("hunter2secret") && !text.contains("sk-abcdef123456"), "\(file) keeps a credential")
        }
    }

    /// `run --output report.txt` wrote ESC[2J, OSC 52, BEL, NUL and C1 bytes from answers into
    /// the file; every text format now gets the terminal's sanitising.
    @Test func aTerminalReportFileHoldsNoControlSequences() async throws {
        let hostile = "A\u{1B}[2J\u{1B}]52;c;aGk=\u{07}B\u{0}C\u{9B}D"
        func side(answer: String, passed: Bool) throws -> String {
            try record { record in
                var suites = record["suites"] as! [[String: Any]]
                var conversation = (suites[0]["conversations"] as! [[String: Any]])[0]
                var turns = conversation["turns"] as! [[String: Any]]
                turns[0]["answer"] = answer
                turns[0]["checks"] = [
                    ["check": "contains", "passed": passed, "weight": 1, "detail": passed ? "found" : "expected \"zzz\"; not found"]
                ]
                conversation["turns"] = turns
                suites[0]["conversations"] = (1...10).map { repetition -> [String: Any] in
                    var copy = conversation
                    copy["repetition"] = repetition
                    return copy
                }
                record["suites"] = suites
            }
        }
        let directory = try folder([
            "base.json": try side(answer: "zzz", passed: true), "head.json": try side(answer: hostile, passed: false),
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["report.txt", "report.md", "report.json"] {
            let outcome = try await cli.run(["compare", "base.json", "head.json", "--no-project", "--output", name], in: directory)
            #expect(outcome.status == 1, "the failing check is a regression: \(outcome.stderr)")
            let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
            #expect(!bytes.contains(0x1B) && !bytes.contains(0x07) && !bytes.contains(0x00), "\(name) holds a control byte")
            #expect(
                !String(decoding: bytes, as: UTF8.self).unicodeScalars.contains { (0x80...0x9F).contains($0.value) },
                "\(name) holds a C1 control")
        }
    }

    // MARK: The results index

    /// A copied reports folder (a restored CI cache whose old workspace still exists) counted runs
    /// that are not in it: the index held absolute paths. And damage of any kind is rebuilt, once.
    @Test func theIndexFollowsItsFolderAndRebuildsWhateverItsDamage() async throws {
        let repository = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: repository) }
        try await SyntheticHistory.make(in: repository, commits: 3, runsPerCommit: 1)
        func history(_ reports: String) async throws -> CommandLineTests.Outcome {
            try await cli.run(["history", "--repo", repository.path, "--reports", reports, "--no-project", "--format", "json"])
        }
        let reports = repository.appendingPathComponent("reports").path
        let first = try await history(reports)
        #expect(first.status == 0, "\(first.stderr)")

        // The folder copied, and the original emptied: the copy's index answers from the copy.
        let copy = repository.appendingPathComponent("restored").path
        try FileManager.default.copyItem(atPath: reports, toPath: copy)
        for file in try FileManager.default.contentsOfDirectory(atPath: copy) where file.hasSuffix(".json") {
            if file != (try FileManager.default.contentsOfDirectory(atPath: copy).filter { $0.hasSuffix(".json") }.sorted().first) {
                try FileManager.default.removeItem(atPath: copy + "/" + file)
            }
        }
        let copied = try await history(copy)
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(copied.stdout.utf8)) as? [String: Any])
        let points = (runs["series"] as? [[String: Any]])?.flatMap { ($0["points"] as? [[String: Any]]) ?? [] } ?? []
        #expect(points.count <= 2, "the copy holds one run, not the original's three: \(points.count) points")

        // A dropped table, a directory where the file should be: rebuilt, said once, answered right.
        let index = reports + "/.chateval/index.sqlite"
        _ = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('DROP TABLE runs'); c.commit()", index,
            ])
        let dropped = try await history(reports)
        #expect(dropped.status == 0, "\(dropped.stderr)")
        #expect(dropped.stderr.components(separatedBy: "rebuilt it").count - 1 == 1, "warned once: \(dropped.stderr)")
        #expect(dropped.stdout == first.stdout, "the same answer as before the damage")

        try FileManager.default.removeItem(atPath: index)
        try FileManager.default.createDirectory(atPath: index, withIntermediateDirectories: true)
        let folderInPlace = try await history(reports)
        #expect(folderInPlace.status == 0, "\(folderInPlace.stderr)")
        #expect(folderInPlace.stdout == first.stdout)
    }
}
