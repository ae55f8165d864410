import ChatEvalCore
import ChatEvalRunner
import ChatEvalSuites
import Foundation
import Testing

/// The suites shipped in `suites/` must measure the model, not reward a model that repeats its
/// prompt (a base model echoing the system prompt, a broken template replaying the transcript):
/// every check on an answer fails when the answer is an echo.
@Suite struct ShippedSuitesTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("suites")

    /// The default suites and the ones in subfolders (suites/matrix, suites/multi-turn-if).
    static func shippedSuites() throws -> [Suite] {
        var paths: [String] = []
        for subfolder in ["", "matrix", "multi-turn-if"] {
            let directory = folder.appendingPathComponent(subfolder)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }.sorted()
            paths += names.map { directory.appendingPathComponent($0).path }
        }
        return try paths.map { try SuiteLoader.load(path: $0) }
    }

    @Test func shippedSuitesLoadWithoutWarnings() throws {
        let suites = try Self.shippedSuites()
        #expect(suites.count >= 6)
        #expect(suites.flatMap(\.warnings).map(\.description) == [])
    }

    /// Echo-passing checks were linted for the shipped suites only; `validate` now warns on any
    /// suite, at the check's line, naming the echo it passes on.
    @Test func aCheckThatAnEchoPassesIsWarnedAboutInAnySuite() throws {
        let suite = try SuiteLoader.parse(
            """
            name: parrot
            conversations:
              - id: c
                system: You are a travel guide for Paris.
                turns:
                  - user: What is the capital of France?
                    checks:
                      - {type: icontains, value: capital}
                      - {type: icontains, value: Paris}
                      - {type: regex, value: "^[0-9]+$"}
            """, file: "parrot.yaml")
        let warnings = EchoLint.warnings(suite)
        #expect(warnings.map(\.line) == [8, 9])
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.file == "parrot.yaml" })
        #expect(warnings.first?.message == "check 'icontains' of c turn 1 passes when the model only repeats the user message")
        #expect(warnings.last?.message.hasSuffix("repeats the system prompt and the user message") == true)
    }

    /// Each echo graded through `EchoLint` (what `validate` warns with): no answer check passes.
    @Test(arguments: EchoLint.Echo.allCases)
    func noCheckOnAnAnswerPassesOnAnEcho(_ echo: EchoLint.Echo) throws {
        var graded = 0
        for suite in try Self.shippedSuites() {
            for conversation in suite.conversations {
                // No metrics: checks that read measurements cannot be evaluated (an error, not a
                // pass); every check that reads the answer must fail.
                for (turn, _, verdict) in EchoLint.graded(conversation, echo: echo) {
                    graded += 1
                    #expect(
                        !verdict.passed,
                        """
                        \(suite.name)/\(conversation.id) turn \(turn ?? 0): \(verdict.check) passes on an echo (\(echo.rawValue)): \
                        \(verdict.detail)
                        """
                    )
                }
            }
        }
        #expect(graded >= 30)
    }
}
