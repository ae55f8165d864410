import Foundation
import Testing

/// `chateval run` end to end on the real model: the result file, its commit, and what survives an
/// interruption. Needs CHATEVAL_MODEL (set by `make test`).
@Suite(.serialized) struct RecordedRunTests {
    let cli = CommandLineTests()

    private func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private func git(_ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", directory.path, "-c", "user.name=t", "-c", "user.email=t@t"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func suite(conversations: Int, maxTokens: Int) -> String {
        "name: recorded\ndefaults: {max_tokens: \(maxTokens)}\nconversations:\n" + (1...conversations).map {
            "  - id: c\($0)\n    turns: [\"Name a colour.\", \"Name another one.\"]\n"
        }.joined()
    }

    private func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test func theResultFileRecordsTheCommitOfTheRepository() throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let repository = try scratch()
        defer { try? FileManager.default.removeItem(at: repository) }
        _ = try git(["init", "-q", "-b", "main"], in: repository)
        try suite(conversations: 1, maxTokens: 4).write(to: repository.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        _ = try git(["add", "s.yaml"], in: repository)
        _ = try git(["commit", "-q", "-m", "a suite"], in: repository)
        let head = try git(["rev-parse", "HEAD"], in: repository)
        let reports = repository.appendingPathComponent("out")

        let outcome = try cli.run(["run", repository.appendingPathComponent("s.yaml").path,
                                   "--repo", repository.path, "--reports", reports.path, "--git-note"],
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
        #expect(try self.git(["notes", "--ref=chateval", "show", "HEAD"], in: repository).contains("\"run_id\":"))
    }

    @Test func outsideARepositoryTheRunWarnsOrFailsWhenGitIsRequired() throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let suiteFile = directory.appendingPathComponent("s.yaml")
        try suite(conversations: 1, maxTokens: 2).write(to: suiteFile, atomically: true, encoding: .utf8)

        let required = try cli.run(["run", suiteFile.path, "--repo", directory.path, "--require-git",
                                    "--reports", directory.appendingPathComponent("out").path])
        #expect(required.status == 2)
        #expect(required.stderr.contains("not a git repository") || required.stderr.contains("could not find repository"))
    }

    @Test func outsideARepositoryTheRunStillWorksAndRecordsNoCommit() throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try suite(conversations: 1, maxTokens: 2).write(to: directory.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)

        let outcome = try cli.run(["run", "s.yaml", "--reports", "out"], environment: ["CI": "true"], in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("is not inside a git repository; the run is recorded without a commit"))
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path).first { $0.hasSuffix(".json") })
        #expect(file.contains("-nogit-"))
        let record = try json(directory.appendingPathComponent("out").appendingPathComponent(file))
        #expect(record["git"] == nil)
        #expect((record["runtime"] as? [String: Any])?["chat_template_hash"] as? String != nil)
    }

    @Test(arguments: ["TERM", "INT"])
    func anInterruptedRunKeepsEveryFinishedTurn(_ signalName: String) async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let (directory, suiteFile, reports) = try longSuite()
        defer { try? FileManager.default.removeItem(at: directory) }

        let process = try startRun(suiteFile, reports: reports)

        // Wait until three turns are journaled, then interrupt.
        let journal = try await waitForJournal(in: reports, lines: 3)
        let journaled = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n").count
        kill(process.processIdentifier, signalName == "TERM" ? SIGTERM : SIGINT)
        process.waitUntilExit()

        #expect(process.terminationStatus == 3)
        let result = URL(fileURLWithPath: journal.path.replacingOccurrences(of: ".journal", with: ".json"))
        let record = try json(result)
        #expect(record["status"] as? String == "incomplete")
        let suites = try #require(record["suites"] as? [[String: Any]])
        let turns = (suites.first?["conversations"] as? [[String: Any]] ?? []).flatMap { $0["turns"] as? [[String: Any]] ?? [] }
        let answered = turns.filter { $0["status"] as? String == "answered" }.count
        #expect(answered >= journaled)          // every turn finished before the signal, and the one in progress
        #expect(answered < 24)                  // the run really stopped early
    }

    @Test func aKilledRunLeavesEveryFinishedTurnInTheJournal() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let (directory, suiteFile, reports) = try longSuite()
        defer { try? FileManager.default.removeItem(at: directory) }

        let process = try startRun(suiteFile, reports: reports)
        let journal = try await waitForJournal(in: reports, lines: 3)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 3)
        for line in lines {
            let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((entry["turn"] as? [String: Any])?["status"] as? String == "answered")
        }
    }

    /// A scratch folder with a 12-conversation suite (long enough to interrupt) and its reports folder.
    private func longSuite() throws -> (directory: URL, suite: URL, reports: URL) {
        let directory = try scratch()
        let suiteFile = directory.appendingPathComponent("s.yaml")
        try suite(conversations: 12, maxTokens: 24).write(to: suiteFile, atomically: true, encoding: .utf8)
        return (directory, suiteFile, directory.appendingPathComponent("out"))
    }

    /// Starts `chateval run` on a suite in the background.
    private func startRun(_ suiteFile: URL, reports: URL) throws -> Process {
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["run", suiteFile.path, "--reports", reports.path]
        process.currentDirectoryURL = suiteFile.deletingLastPathComponent()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func waitForJournal(in folder: URL, lines: Int) async throws -> URL {
        for _ in 0..<600 {
            if let name = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.first(where: { $0.hasSuffix(".journal") }) {
                let url = folder.appendingPathComponent(name)
                if ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").count >= lines { return url }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("no journal with \(lines) lines appeared within 60 s")
        throw CancellationError()
    }
}
