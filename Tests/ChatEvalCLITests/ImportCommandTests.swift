import Foundation
import Testing

/// `chateval import multi-if` and `import ifbench` on the hand-written fixtures: the suite on
/// standard output, or every problem at its line and exit 2 with nothing written.
extension CommandLineTests {
    static let importFixtures = packageRoot.appendingPathComponent("Tests/ChatEvalSuitesTests/Fixtures/multi-turn-import")

    @Test func importMultiIFWritesATaggedSuiteOrRefusesAtTheRow() async throws {
        let good = try await run(["import", "multi-if", Self.importFixtures.appendingPathComponent("multi-if.csv").path])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("tags: [\"multi-turn-if\", \"multi-if\", \"english\"]"), "\(good.stdout)")
        let bad = Self.importFixtures.appendingPathComponent("multi-if-unsupported.csv").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("imported-\(UUID()).yaml").path
        let refused = try await run(["import", "multi-if", bad, "-o", output])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains("\(bad):3: error: turn 1: instruction 'detectable_format:made_up' has no ChatEval check"),
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let dropped = try await run(["import", "multi-if", bad, "-o", output, "--drop-unsupported"])
        defer { try? FileManager.default.removeItem(atPath: output) }
        #expect(dropped.status == 0, "\(dropped.stderr)")
        #expect(dropped.stderr.contains("warning: turn 1: instruction 'detectable_format:made_up' has no ChatEval check; left out"))
        let validated = try await run(["validate", output])
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
    }

    /// Issue 44: `import promptfoo --help` said "Each prompt × test becomes a conversation", which
    /// the import no longer does: prompts are variants over the tests, named by label or first words.
    @Test func importPromptfooHelpSaysWhatTheImportDoes() async throws {
        let help = try await run(["import", "promptfoo", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        let text = help.stdout.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        #expect(!text.contains("Each prompt × test becomes a conversation"), "\(help.stdout)")
        #expect(text.contains("Each test becomes a conversation and each prompt a variant of the suite"), "\(help.stdout)")
        #expect(text.contains("named by the config's description"))
    }

    @Test func importIFBenchSaysWrittenAnswersAreNotSent() async throws {
        let outcome = try await run(["import", "ifbench", Self.importFixtures.appendingPathComponent("ifbench.jsonl").path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("2 written assistant answer(s) are not sent"), "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"startend:end_checker\""))
    }
}
