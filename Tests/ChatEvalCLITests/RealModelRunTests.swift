import ChatEvalTestKit
import Foundation
import Synchronization
import Testing

/// `chateval run` end to end on the real model: the result file, its commit, and what survives an
/// interruption. Needs CHATEVAL_MODEL (set by `make test`).
@Suite(.serialized, .tags(.realModel), .usesAllCores) struct RealModelRunTests {
    let cli = CommandLineTests()

    private func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private func git(_ arguments: [String], in directory: URL) async throws -> String {
        let outcome = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/git"), ["-C", directory.path, "-c", "user.name=t", "-c", "user.email=t@t"] + arguments)
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func suite(conversations: Int, maxTokens: Int) -> String {
        // What these tests check is the recording, not a 4-token answer: the gate lets checks fail
        // (a suite without gates needs every check to pass).
        "name: recorded\ngates: {min_pass_rate: 0}\ndefaults: {max_tokens: \(maxTokens)}\nconversations:\n"
            + (1...conversations).map {
                "  - id: c\($0)\n    turns:\n      - user: Name a colour.\n"
                    + "        checks: [{type: icontains, value: blue}, {type: length, unit: words, max: 5}]\n"
                    + "      - user: Name another one.\n        checks: [{type: icontains, value: red}]\n"
            }.joined()
    }

    private func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test func theResultFileRecordsTheCommitOfTheRepository() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let repository = try scratch()
        defer { try? FileManager.default.removeItem(at: repository) }
        _ = try await git(["init", "-q", "-b", "main"], in: repository)
        try suite(conversations: 1, maxTokens: 4).write(to: repository.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        _ = try await git(["add", "s.yaml"], in: repository)
        _ = try await git(["commit", "-q", "-m", "a suite"], in: repository)
        let head = try await git(["rev-parse", "HEAD"], in: repository)
        let reports = repository.appendingPathComponent("out")

        let outcome = try await cli.run(
            [
                "run", repository.appendingPathComponent("s.yaml").path,
                "--repo", repository.path, "--reports", reports.path, "--git-note",
            ],
            environment: ["CI": "true"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0.hasSuffix(".json") }
        let file = try #require(files.first)
        #expect(file.contains("-\(head.prefix(7))"))
        let record = try json(reports.appendingPathComponent(file))
        let git = try #require(record["git"] as? [String: Any])
        #expect(git["commit"] as? String == head)
        #expect(git["branch"] as? String == "main")
        #expect(git["is_dirty"] as? Bool == false)
        #expect(record["status"] as? String == "complete")
        #expect(record["schema_version"] as? Int == 1)
        #expect(outcome.stdout.contains("commit    \(head)"))
        #expect(try await self.git(["notes", "--ref=chateval", "show", "HEAD"], in: repository).contains("\"run_id\":"))
    }

    /// An in-process run never loads libcurl (the served runtime's HTTP client and its 28
    /// libraries): glibc's loader log (LD_DEBUG=files) of a whole run names llama.cpp's library
    /// and nothing of libcurl.
    @Test func anInProcessRunNeverLoadsLibcurl() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try suite(conversations: 1, maxTokens: 2).write(to: directory.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("loader").path
        let outcome = try await cli.run(
            ["run", "s.yaml", "--reports", "out"], environment: ["CI": "true", "LD_DEBUG": "files", "LD_DEBUG_OUTPUT": log],
            in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path).contains {
                $0.hasSuffix(".json")
            })
        let logs = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("loader.") }
        let text = try logs.map { try String(contentsOfFile: directory.appendingPathComponent($0).path, encoding: .utf8) }.joined()
        #expect(text.contains("file=libllama.so"), "the loader's log: \(text.prefix(300))")
        #expect(!text.contains("libcurl"))
    }

    /// `run --memory-attribution` prints its table after the run: each part in MiB, the harness's
    /// largest files under its line, the parts adding up to the process's total and the harness's
    /// two to its total (to the table's rounding: 0.05 MiB a row).
    @Test func aRunPrintsItsMemorySplitWhenAsked() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try suite(conversations: 1, maxTokens: 2).write(to: directory.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let outcome = try await cli.run(
            ["run", "s.yaml", "--reports", "out", "--memory-attribution"], environment: ["CI": "true"], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let stdout = outcome.stdout
        let table = try #require(
            stdout.range(of: "memory of this process after the run").map { String(stdout[$0.upperBound...]) }, "\(stdout)")
        func value(_ label: String) throws -> Double {
            let line = try #require(
                table.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }, "\(label)")
            return try #require(line.split(separator: " ").last.flatMap { Double($0) }, "\(line)")
        }
        let parts = try [
            "model file, mapped", "llama.cpp buffers", "llama.cpp and OpenMP libraries", "harness: files mapped", "harness: anonymous",
        ].map(value)
        #expect(abs(parts.reduce(0, +) - (try value("process (its mappings"))) <= 0.35, "\(table)")
        #expect(abs(parts[3] + parts[4] - (try value("harness total"))) <= 0.2, "\(table)")
        #expect(try value("chateval") > 0, "the executable is listed among the harness's files: \(table)")
        #expect(parts[0] > 0 && parts[1] > 0)
    }

    /// The two shipped models from one command: one result file each, one group, and a report
    /// that shows them side by side per suite and per turn.
    @Test func twoModelsRunSideBySideFromOneCommand() async throws {
        let chat = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let gemma = try #require(ProcessInfo.processInfo.environment["CHATEVAL_GEMMA_MODEL"], "CHATEVAL_GEMMA_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try suite(conversations: 1, maxTokens: 4).write(to: directory.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let reports = directory.appendingPathComponent("out")

        let outcome = try await cli.run(
            [
                "run", "s.yaml", "--model", chat, "--model", gemma, "--chat-template", "embedded",
                "--chat-template", "gemma", "--ctx-size", "512", "--reports", reports.path,
            ],
            environment: ["CI": "true"], in: directory)
        #expect(outcome.status == 0 || outcome.status == 1, "\(outcome.stderr)")  // checks may fail; the run must complete
        #expect(
            outcome.stdout.contains(
                "plan      1 suite: 1 conversation × 1 repetition = 1 replay (2 turns), no warm-up; each of 2 models\n"
                    + "models    1. SmolLM2-135M-Instruct.Q4_1\n"
                    + "          2. gemma-3-270m-q4_k_m\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("on 2 models"))
        #expect(outcome.stdout.contains("side by side (repetition 1 of each model)"))
        let perTurn = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("      SmolLM2") || $0.hasPrefix("      gemma-3") }
        #expect(perTurn.count == 4, "\(outcome.stdout)")  // 2 turns × 2 models
        let files = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count == 2)
        let records = try files.map { try json(reports.appendingPathComponent($0)) }
        let groups = records.compactMap { $0["group"] as? [String: Any] }
        #expect(groups.count == 2 && Set(groups.compactMap { $0["id"] as? String }).count == 1)
        #expect(Set(groups.compactMap { $0["index"] as? Int }) == [1, 2])
        let templates = records.compactMap { ($0["runtime"] as? [String: Any])?["chat_template"] as? String }
        #expect(Set(templates) == ["embedded", "gemma"])
    }

    /// llama-bench needs only `-m`: from a folder without suites, `run --model` replays the built-in
    /// chat benchmark, and two models give the cross-model table in Markdown and CSV (issue 31).
    @Test func withoutSuitesTwoModelsRunTheBuiltInBenchmarkIntoOneTable() async throws {
        let chat = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let gemma = try #require(ProcessInfo.processInfo.environment["CHATEVAL_GEMMA_MODEL"], "CHATEVAL_GEMMA_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(
            [
                "run", "--model", chat, "--model", gemma, "--chat-template", "embedded", "--chat-template", "gemma",
                "--format", "markdown", "--output", "models.csv", "--reports", "out",
            ],
            environment: ["CI": "true"], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("the built-in chat benchmark"), "\(outcome.stderr)")
        #expect(outcome.stdout.contains("| model | turns | TTFT p50 ± MAD | prefill t/s | decode t/s | reuse turns ≥ 2 | other cores |"))
        let rows = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("| SmolLM2") || $0.hasPrefix("| gemma-3") }
        #expect(rows.count == 2 && rows.allSatisfy { $0.contains("| 12 |") }, "\(outcome.stdout)")
        let csv = try StrictCSV.parse(String(contentsOf: directory.appendingPathComponent("models.csv"), encoding: .utf8))
        #expect(csv.count == 3 && csv[1][0].hasPrefix("SmolLM2") && csv[2][0].hasPrefix("gemma-3"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)
        let record = try json(
            directory.appendingPathComponent("out").appendingPathComponent(try #require(files.first { $0.hasSuffix(".json") })))
        let suites = try #require(record["suites"] as? [[String: Any]])
        #expect(suites.map { $0["path"] as? String } == ["built-in:chat-benchmark"])
    }

    /// An answer cut at max_tokens ends at a character boundary (issue 31): SmolLM2 spells each of
    /// these kana in two tokens, so every even cap below cut one in half and the answer ended in U+FFFD.
    @Test func anAnswerCutAtMaxTokensNeverEndsInAReplacementCharacter() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let conversations = (3...12).map {
            "  - id: cap\($0)\n    max_tokens: \($0)\n    turns:\n"
                + "      - user: \"Repeat exactly, nothing else: 東京都庁舎 🌍🌍🌍 北海道 😀😀 日本語のテキスト\"\n"
        }
        try ("name: cut\ngates: {min_pass_rate: 0}\nconversations:\n" + conversations.joined())
            .write(to: directory.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let outcome = try await cli.run(
            ["run", "s.yaml", "--reports", "out", "--format", "json"], environment: ["CI": "true"], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let replays = try #require((record["suites"] as? [[String: Any]])?.first?["conversations"] as? [[String: Any]])
        let answers = replays.compactMap { (($0["turns"] as? [[String: Any]])?.first?["answer"] as? String) }
        #expect(answers.count == 10)
        #expect(answers.allSatisfy { !$0.unicodeScalars.contains("\u{FFFD}") }, "\(answers)")
    }

    @Test func outsideARepositoryTheRunWarnsOrFailsWhenGitIsRequired() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let suiteFile = directory.appendingPathComponent("s.yaml")
        try suite(conversations: 1, maxTokens: 2).write(to: suiteFile, atomically: true, encoding: .utf8)

        // Found from the current folder, as a user runs it: only --require-git makes this an error.
        let required = try await cli.run(["run", suiteFile.path, "--require-git", "--reports", "out"], in: directory)
        #expect(required.status == 2)
        #expect(required.stderr.contains("no git repository at or above \(directory.path)"), "\(required.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))  // nothing was run
    }

    @Test func outsideARepositoryTheRunStillWorksAndRecordsNoCommit() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try suite(conversations: 1, maxTokens: 2).write(to: directory.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)

        let outcome = try await cli.run(["run", "s.yaml", "--reports", "out"], environment: ["CI": "true"], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("is not inside a git repository; the run is recorded without a commit"))
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path).first {
                $0.hasSuffix(".json")
            })
        #expect(file.contains("-nogit-"))
        let record = try json(directory.appendingPathComponent("out").appendingPathComponent(file))
        #expect(record["git"] == nil)
        #expect((record["runtime"] as? [String: Any])?["chat_template_hash"] as? String != nil)
    }

    @Test func theReportGoesOutInTheFormatsAskedAndStandardOutputHoldsOnlyOne() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try suite(conversations: 1, maxTokens: 2).write(to: directory.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)

        let outcome = try await cli.run(
            ["run", "s.yaml", "--reports", "out", "--format", "json", "--output", "run.xml", "--output", "run.html", "--output", "run.md"],
            environment: ["CI": "true", "GITHUB_STEP_SUMMARY": ""], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let printed = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "standard output is the record alone")
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path).first {
                $0.hasSuffix(".json")
            })
        #expect(
            printed["run_id"] as? String == (try json(directory.appendingPathComponent("out").appendingPathComponent(file)))["run_id"]
                as? String)
        #expect(
            outcome.stderr.contains("result    ") && outcome.stderr.contains("plan      "),
            "the header and the result's path on standard error")
        func text(_ name: String) throws -> String { try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) }
        #expect(try text("run.xml").contains("<testsuite package=\"chateval\" id=\"0\" name=\"recorded\""))
        #expect(try text("run.html").contains("<title>TTFT per turn</title>"))
        #expect(try text("run.md").hasPrefix("## ChatEval run"))
    }

    @Test(arguments: ["TERM", "INT"])
    func anInterruptedRunKeepsEveryFinishedTurn(_ signalName: String) async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let (directory, suiteFile, reports) = try longSuite()
        defer { try? FileManager.default.removeItem(at: directory) }

        // Wait until three turns are journaled, then interrupt.
        let (outcome, journal, journaled) = try await interruptedRun(
            suiteFile, reports: reports, afterTurns: 3,
            signals: [signalName == "TERM" ? SIGTERM : SIGINT])
        #expect(outcome.status == 3)
        let result = URL(fileURLWithPath: journal.path.replacingOccurrences(of: ".journal", with: ".json"))
        let record = try json(result)
        #expect(record["status"] as? String == "incomplete")
        let suites = try #require(record["suites"] as? [[String: Any]])
        let turns = (suites.first?["conversations"] as? [[String: Any]] ?? []).flatMap { $0["turns"] as? [[String: Any]] ?? [] }
        let answered = turns.filter { $0["status"] as? String == "answered" }.count
        #expect(answered >= journaled)  // every turn finished before the signal, and the one in progress
        #expect(answered < 24)  // the run really stopped early
    }

    /// A report that cannot be written is said where it happened, and the interruption that ends
    /// the run after it does not hide it.
    @Test func anInterruptedRunStillSaysItsReportWasNotWritten() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let (directory, suiteFile, reports) = try longSuite()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("no-such-folder/run.html").path
        let (outcome, _, _) = try await interruptedRun(
            suiteFile, reports: reports, afterTurns: 2, signals: [SIGINT], arguments: ["--output", page])
        #expect(outcome.status == 3, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("chateval: error: cannot write the html report"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("chateval: error: the run was interrupted"), "\(outcome.stderr)")
    }

    @Test func aKilledRunIsRecoveredAsTheRunWouldHaveGradedIt() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let (directory, suiteFile, reports) = try longSuite()
        defer { try? FileManager.default.removeItem(at: directory) }

        let (_, journal, _) = try await interruptedRun(suiteFile, reports: reports, afterTurns: 5, signals: [SIGKILL])

        let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 6)
        for line in lines.dropFirst() {
            let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((entry["turn"] as? [String: Any])?["status"] as? String == "answered")
        }

        let recovered = try await cli.run(["recover", journal.path])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(!FileManager.default.fileExists(atPath: journal.path))
        let record = try json(URL(fileURLWithPath: journal.path.replacingOccurrences(of: ".journal", with: ".json")))
        #expect(record["status"] as? String == "incomplete")

        // The same suite run to the end: every recovered replay was graded as that run graded it.
        // From the suite's folder, as the killed run: no project file applies (the package's own
        // chateval.yaml would ask for 10 repetitions).
        let complete = try await cli.run(
            ["run", suiteFile.path, "--reports", directory.appendingPathComponent("complete").path],
            environment: ["CI": "true"], in: directory)
        #expect(complete.status == 0, "\(complete.stderr)")
        let completeFile = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("complete").path).first {
                $0.hasSuffix(".json")
            })
        let full = try json(directory.appendingPathComponent("complete/\(completeFile)"))
        func verdicts(_ record: [String: Any]) -> [String: [[Bool]]] {
            let conversations = ((record["suites"] as? [[String: Any]])?.first?["conversations"] as? [[String: Any]]) ?? []
            var result: [String: [[Bool]]] = [:]
            for conversation in conversations {
                let turns = conversation["turns"] as? [[String: Any]] ?? []
                guard turns.allSatisfy({ $0["status"] as? String == "answered" }) else { continue }  // replays the kill cut short
                result[conversation["id"] as? String ?? ""] = turns.map {
                    ($0["checks"] as? [[String: Any]] ?? []).map { $0["passed"] as? Bool ?? false }
                }
            }
            return result
        }
        let recoveredVerdicts = verdicts(record), fullVerdicts = verdicts(full)
        #expect(recoveredVerdicts.count >= 2)
        for (conversation, turns) in recoveredVerdicts {
            #expect(turns == fullVerdicts[conversation], "\(conversation)")
        }
    }

    @Test func theNextRunRecoversAJournalLeftBehind() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let (directory, suiteFile, reports) = try longSuite()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, journal, _) = try await interruptedRun(suiteFile, reports: reports, afterTurns: 2, signals: [SIGKILL])

        let small = directory.appendingPathComponent("small.yaml")
        try suite(conversations: 1, maxTokens: 2).write(to: small, atomically: true, encoding: .utf8)
        let next = try await cli.run(["run", small.path, "--reports", reports.path], environment: ["CI": "true"], in: directory)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("recovered \(journal.lastPathComponent), left by a run that died"))
        #expect(!FileManager.default.fileExists(atPath: journal.path))
        #expect(
            try json(URL(fileURLWithPath: journal.path.replacingOccurrences(of: ".journal", with: ".json")))["status"] as? String
                == "incomplete")
    }

    /// Two presses, as a person makes them: the second lands during a long prefill and cancels it.
    @Test func aSecondInterruptStopsTheTurnAndStillWritesTheResult() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let passage = String(repeating: "The river winds through the valley past old mills and orchards. ", count: 160)
        let suiteFile = directory.appendingPathComponent("long.yaml")
        try
            ("name: long\ndefaults: {max_tokens: 4}\nconversations:\n"
            + (1...3).map { "  - {id: c\($0), turns: [\"\(passage)\"]}\n" }.joined())
            .write(to: suiteFile, atomically: true, encoding: .utf8)
        let reports = directory.appendingPathComponent("out")
        // The journal's header is written just before the first turn starts: a moment later that
        // turn is in its prefill of about 2,000 tokens, which both signals arrive during. (Waiting
        // for a finished turn instead would race the next conversation's start: a first signal
        // between conversations ends the run with no turn to cancel.)
        let (outcome, journal, _) = try await interruptedRun(
            suiteFile, reports: reports, afterTurns: 0, signals: [SIGINT, SIGINT],
            pause: .milliseconds(300), delay: .milliseconds(100))
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("stopping the current turn now"))
        let record = try json(URL(fileURLWithPath: journal.path.replacingOccurrences(of: ".journal", with: ".json")))
        #expect(record["status"] as? String == "incomplete")
        let turns = ((record["suites"] as? [[String: Any]])?.first?["conversations"] as? [[String: Any]] ?? []).flatMap {
            $0["turns"] as? [[String: Any]] ?? []
        }
        #expect(turns.contains { ($0["failure"] as? [String: Any])?["code"] as? String == "cancelled" })
        #expect(!FileManager.default.fileExists(atPath: journal.path))  // the result holds everything
    }

    /// A full disk (here: a file size limit, so that writes fail as they would): earlier turns stay
    /// intact in the journal, the message names the file, the run stops with 3, and `recover`
    /// turns the journal into a result once writes succeed again.
    @Test func aWriteThatFailsLosesNothingWritten() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let (directory, suiteFile, reports) = try longSuite()
        defer { try? FileManager.default.removeItem(at: directory) }
        let command =
            "trap '' XFSZ; ulimit -f 24; exec '\(CommandLineTests.binary.path)' run '\(suiteFile.path)' --reports '\(reports.path)'"
        let limited = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", command], environment: ["CI": "true"], in: directory)
        #expect(limited.status == 3, "\(limited.stderr)")
        #expect(limited.stderr.contains("could not write \(reports.path)/"), "\(limited.stderr)")
        #expect(limited.stderr.contains("File too large"))
        #expect(!limited.stderr.contains("Fatal error"))

        let journal = try #require(try FileManager.default.contentsOfDirectory(atPath: reports.path).first { $0.hasSuffix(".journal") })
        let lines = try String(contentsOf: reports.appendingPathComponent(journal), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")  // ends with a whole line
        for line in lines.dropLast() {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "a torn line: \(line.prefix(80))")
        }
        #expect(lines.count >= 3)  // the header and at least one turn
        let recovered = try await cli.run(["recover", reports.appendingPathComponent(journal).path])
        #expect(recovered.status == 0, "\(recovered.stderr)")
    }

    /// A scratch folder with a 12-conversation suite (long enough to interrupt) and its reports folder.
    private func longSuite() throws -> (directory: URL, suite: URL, reports: URL) {
        let directory = try scratch()
        let suiteFile = directory.appendingPathComponent("s.yaml")
        try suite(conversations: 12, maxTokens: 24).write(to: suiteFile, atomically: true, encoding: .utf8)
        return (directory, suiteFile, directory.appendingPathComponent("out"))
    }

    /// Runs the suite, sends `signals` once `turns` turns are journaled, and returns how the run
    /// ended, its journal, and how many turns the journal held when the first signal went.
    private func interruptedRun(
        _ suiteFile: URL, reports: URL, afterTurns turns: Int, signals: [Int32], pause: Duration = .zero,
        delay: Duration = .zero, arguments: [String] = []
    )
        async throws -> (outcome: CommandLineTests.Outcome, journal: URL, journaledTurns: Int)
    {
        let seen = Mutex<(URL, Int)?>(nil)
        let outcome = try await ProcessRunner.run(
            CommandLineTests.binary, ["run", suiteFile.path, "--reports", reports.path] + arguments,
            environment: ["CI": "true"], in: suiteFile.deletingLastPathComponent()
        ) { running in
            let journal = try await Self.waitForJournal(in: reports, turns: turns)
            let count = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n").count - 1
            seen.withLock { $0 = (journal, count) }
            try await Task.sleep(for: delay)
            for (index, signal) in signals.enumerated() {
                if index > 0 { try await Task.sleep(for: pause) }
                running.send(signal)
            }
        }
        let (journal, count) = try #require(seen.withLock { $0 })
        return (outcome, journal, count)
    }

    /// The run's journal once it holds `turns` turns (after its header line).
    /// Waits — however long the machine takes — until the run's journal holds `turns` turns;
    /// fails if the run ends first (its result file is no longer `running`).
    private static func waitForJournal(in folder: URL, turns: Int) async throws -> URL {
        while true {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if let name = names.first(where: { $0.hasSuffix(".journal") }) {
                let url = folder.appendingPathComponent(name)
                if ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").count >= turns + 1 { return url }
            }
            if let result = names.first(where: { $0.hasSuffix(".json") }),
                let data = FileManager.default.contents(atPath: folder.appendingPathComponent(result).path),
                let record = try? JSONSerialization.jsonObject(with: data) as? [String: Any], record["status"] as? String != "running"
            {
                Issue.record("the run ended before its journal held \(turns) turns")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
