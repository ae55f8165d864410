import ChatEvalTestKit
import Foundation
import Testing

/// The `chateval` binary as a user runs it: bad input gets one clear line and exit code 2.
@Suite struct CommandLineTests {
    typealias Outcome = ProcessRunner.Outcome

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The binary built next to the test runner (`make test` builds both).
    static var binary: URL {
        let runner = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return runner.deletingLastPathComponent().appendingPathComponent("chateval")
    }

    /// A new folder under the temporary directory holding `files` (name → text); the caller removes it.
    static func folder(_ files: [String: String] = [:], prefix: String = "chateval") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return directory
    }

    /// Runs `chateval` with `arguments` in `directory` (default: the package root).
    func run(_ arguments: [String], environment: [String: String] = [:], in directory: URL = packageRoot) async throws -> Outcome {
        try await ProcessRunner.run(Self.binary, arguments, environment: environment, in: directory)
    }

    private func temporarySuite(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("suite-\(UUID().uuidString).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func binaryIsBuilt() async {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "\(Self.binary.path)")
    }

    @Test func missingModelIsBadInput() async throws {
        let outcome = try await run(["run", "suites/smoke.yaml", "--model", "/no/such/model.gguf"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("model file /no/such/model.gguf does not exist"))
        #expect(!outcome.stderr.contains("Fatal error"))
    }

    @Test func fileThatIsNotAModelIsBadInput() async throws {
        let outcome = try await run(["run", "suites/smoke.yaml", "--model", "Package.swift"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("is not a GGUF model file"))
    }

    @Test(arguments: [["--threads", "0"], ["--threads=-3"], ["--ctx-size", "0"]])
    func nonsenseNumbersAreUsageErrors(_ option: [String]) async throws {
        let outcome = try await run(["run", "suites/smoke.yaml"] + option)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("must be at least"))
    }

    @Test func unreadableSuiteIsBadInputAndNamesThePath() async throws {
        let outcome = try await run(["run", "/no/such/suite.yaml"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("/no/such/suite.yaml: no such suite file or folder"))
    }

    @Test func malformedSuiteIsReportedWithItsLine() async throws {
        let path = try temporarySuite("name: broken\nconversations:\n  - id: a\n    turns: [hi]\n    max_tokns: 3\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await run(["validate", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(path):5:5: error: unknown key 'max_tokns' in a conversation; did you mean 'max_tokens'?"))
    }

    @Test func validSuitesValidate() async throws {
        let outcome = try await run(["validate", "suites"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("smoke.yaml: ok"))
    }

    /// --memory-attribution prints after a plain run's models; where it would print nothing it is
    /// refused before anything runs.
    @Test(arguments: [["--baseline", "HEAD"], ["--verify-cache"]])
    func memoryAttributionIsRefusedWhereItWouldPrintNothing(_ option: [String]) async throws {
        let outcome = try await run(["run", "suites/smoke.yaml", "--memory-attribution"] + option)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("--memory-attribution"), "\(outcome.stderr)")
    }

    @Test func unknownOptionIsAUsageError() async throws {
        let outcome = try await run(["run", "--no-such-flag"])
        #expect(outcome.status == 2)
    }

    /// ArgumentParser's "Error: ..." stood beside ChatEval's "chateval: error: ...".
    @Test func usageErrorsSpeakInChatEvalsVoice() async throws {
        let outcome = try await run(["run", "--no-such-flag"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("chateval: error: Unknown option '--no-such-flag'"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Error: "))
    }

    /// `validate suite/smoke.yml` said only that no such file exists.
    @Test func aMistypedSuitePathGetsTheNearestOne() async throws {
        let outcome = try await run(["validate", "suite/smoke.yml"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains("suite/smoke.yml: no such suite file or folder; did you mean suites/smoke.yaml?"), "\(outcome.stderr)")
    }

    /// A folder given to --model was reported as not existing.
    @Test func aFolderGivenAsTheModelIsCalledAFolder() async throws {
        let outcome = try await run(["run", "suites/smoke.yaml", "--model", "suites"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("suites is a folder, not a model file"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("does not exist"))
    }

    /// `compare mian HEAD` said the revision was unknown, and no more.
    @Test func aMistypedRevisionGetsTheNearestBranch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("revision-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let git = URL(fileURLWithPath: "/usr/bin/git")
        #expect(try await ProcessRunner.run(git, ["init", "-q", "-b", "main"], in: directory).status == 0)
        let commit = try await ProcessRunner.run(
            git, ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "first"], in: directory)
        #expect(commit.status == 0)
        let outcome = try await run(["compare", "mian", "HEAD"], in: directory)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains("'mian' is not a result file") && outcome.stderr.contains("did you mean main?"), "\(outcome.stderr)")
    }

    @Test func versionNamesChatEvalAndItsNativeLibraries() async throws {
        let outcome = try await run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("chateval 0."), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("ggml ") && outcome.stdout.contains("libgit2 1."), "\(outcome.stdout)")
    }

    @Test func helpShowsExamples() async throws {
        let root = try await run(["--help"])
        #expect(root.stdout.contains("chateval run --model a.gguf --model b.gguf"))
        let run = try await run(["run", "--help"])
        #expect(run.stdout.contains("Examples:") && run.stdout.contains("--filter"))
    }

    /// Every command's examples, as `--help` prints them outside a terminal (80 columns): no
    /// example wrapped by the help formatter onto a line at the margin.
    @Test(arguments: [
        [], ["run"], ["compare"], ["calibrate"], ["merge"], ["history"], ["index"], ["validate"], ["grade"], ["recover"], ["templates"],
        ["report"], ["import", "promptfoo"], ["import", "multi-if"], ["import", "ifbench"],
    ])
    func everyExampleFitsEightyColumns(_ command: [String]) async throws {
        let help = try await run(command + ["--help"])
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "Examples:"), "\(command) has no examples")
        for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) {
            #expect(line.hasPrefix("  ") && line.count <= 80, "\(command): \(line)")
        }
    }

    @Test func aSelectionThatPicksNothingIsBadInputBeforeAnyModelLoads() async throws {
        let outcome = try await run(["run", "suites", "--filter", "no-such-thing", "--model", "/no/such/model.gguf"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("no conversation matches --filter no-such-thing; there are: "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("smoke/capitals"))
        let id = try await run(["run", "suites/memory.yaml#pet-nam"])
        #expect(id.status == 2)
        #expect(id.stderr.contains("suites/memory.yaml has no conversation 'pet-nam'; did you mean 'pet-name'?"), "\(id.stderr)")
    }

    @Test func aMisspelledChatTemplateSuggestsTheNearestName() async throws {
        let model = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let outcome = try await run(
            ["run", "suites/smoke.yaml", "--model", model, "--chat-template", "gema", "--reports", "/tmp/unused"],
            environment: ["CI": "true"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("unknown chat template 'gema'; did you mean 'gemma'?"), "\(outcome.stderr)")
    }

    /// Every model is checked before the first one runs: a second model that cannot run (a folder;
    /// Gemma, which stores no chat template) stops the run before any turn, naming that model.
    @Test func everyModelIsCheckedBeforeAnyRuns() async throws {
        let model = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-not-a-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var second = [(path: folder.path, says: "is a folder, not a model file")]
        if let gemma = ProcessInfo.processInfo.environment["CHATEVAL_GEMMA_MODEL"] { second.append((gemma, "stores no chat template")) }
        for (path, says) in second {
            let outcome = try await run(
                ["run", "suites/smoke.yaml", "--model", model, "--model", path, "--repeat", "1", "--reports", folder.path],
                environment: ["CI": "true"])
            #expect(outcome.status == 2, "\(outcome.stderr)")
            #expect(outcome.stderr.contains(path), "the refusal names the model: \(outcome.stderr)")
            #expect(outcome.stderr.contains(says) && outcome.stderr.contains("nothing was run"), "\(outcome.stderr)")
            #expect(!outcome.stdout.contains("done ") && !outcome.stderr.contains("done "), "no suite ran: \(outcome.stdout)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no result file was written")
    }

    /// ✓ and ✗ are coloured on a terminal (`script` gives the command one), never in a pipe or
    /// with NO_COLOR set.
    @Test func marksAreColouredOnATerminalOnly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("colour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "name: c\nconversations:\n  - id: a\n    turns:\n      - user: hi\n        checks: [{type: icontains, value: hello}]\n"
            .write(to: directory.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        try #"{"conversation": "a", "turn": 1, "answer": "hello"}"#.write(
            to: directory.appendingPathComponent("a.jsonl"), atomically: true, encoding: .utf8)
        let grade = [
            Self.binary.path, "grade", directory.appendingPathComponent("s.yaml").path, "--answers",
            directory.appendingPathComponent("a.jsonl").path,
        ]
        let green = "\u{1B}[32m✓\u{1B}[0m"

        let piped = try await run(Array(grade.dropFirst()))
        #expect(piped.stdout.contains("✓") && !piped.stdout.contains("\u{1B}["))
        let command = grade.map { "'\($0)'" }.joined(separator: " ")
        let onTerminal = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/script"), ["-q", "-e", "-c", command, "/dev/null"],
            environment: ["TERM": "xterm", "NO_COLOR": ""])
        #expect(onTerminal.stdout.contains(green), "\(onTerminal.stdout)")
        let noColour = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/script"), ["-q", "-e", "-c", command, "/dev/null"],
            environment: ["TERM": "xterm", "NO_COLOR": "1"])
        #expect(noColour.stdout.contains("✓") && !noColour.stdout.contains("\u{1B}[32m"), "\(noColour.stdout)")
    }
}
