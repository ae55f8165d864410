import ChatEvalTestKit
import Foundation
import Testing

/// The `chateval` binary as a user runs it: bad input gets one clear line and exit code 2.
@Suite struct CommandLineTests {
    typealias Outcome = ProcessRunner.Outcome

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary built next to the test runner (`swift build --build-tests` builds both).
    static var binary: URL {
        let runner = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return runner.deletingLastPathComponent().appendingPathComponent("chateval")
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

    @Test func unknownOptionIsAUsageError() async throws {
        let outcome = try await run(["run", "--no-such-flag"])
        #expect(outcome.status == 2)
    }
}
