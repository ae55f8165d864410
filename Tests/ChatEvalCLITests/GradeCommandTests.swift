import Foundation
import Testing

/// `chateval grade`: stored answers graded without a model.
@Suite struct GradeCommandTests {
    let cli = CommandLineTests()

    private func files(suite: String, answers: String) throws -> (URL, String, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try suite.write(to: directory.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        try answers.write(to: directory.appendingPathComponent("a.jsonl"), atomically: true, encoding: .utf8)
        return (directory, directory.appendingPathComponent("s.yaml").path, directory.appendingPathComponent("a.jsonl").path)
    }

    let suite = """
        name: g
        gates: {min_pass_rate: 1.0}
        conversations:
          - id: capital
            turns:
              - user: Capital of France?
                checks: [{type: icontains, value: paris}]
              - user: "You said {{turn1.answer}} Sure?"
                checks: [{type: contains, value: "{{turn1.answer}}"}]
        """

    @Test func goodAnswersPassAndTheJSONHoldsTheVerdicts() throws {
        let (directory, suitePath, answersPath) = try files(suite: suite, answers: """
            {"conversation": "capital", "turn": 1, "answer": "Paris."}
            {"conversation": "capital", "turn": 2, "answer": "Yes: Paris. is right."}
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("graded.json")
        let outcome = try cli.run(["grade", suitePath, "--answers", answersPath, "--output", output.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("checks: 2 of 2 passed"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        let turns = ((json["conversations"] as? [[String: Any]])?.first?["turns"] as? [[String: Any]]) ?? []
        #expect(turns.count == 2)
        #expect((turns[1]["user"] as? String) == "You said Paris. Sure?")
        #expect(((turns[0]["checks"] as? [[String: Any]])?.first?["passed"] as? Bool) == true)
    }

    @Test func aFailedGateExitsWithOne() throws {
        let (directory, suitePath, answersPath) = try files(suite: suite, answers: """
            {"conversation": "capital", "turn": 1, "answer": "Lyon."}
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try cli.run(["grade", suitePath, "--answers", answersPath])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("✗ icontains"))
        #expect(outcome.stdout.contains("gate min_pass_rate"))
    }

    @Test func malformedAnswerLinesAreReportedByLine() throws {
        let (directory, suitePath, answersPath) = try files(suite: suite, answers: """
            {"conversation": "capital", "turn": 1, "answer": "Paris."}
            {"conversation": "capitl", "turn": 1, "answer": "x"}
            {"conversation": "capital", "turn": 9, "answer": "x"}
            not json
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try cli.run(["grade", suitePath, "--answers", answersPath])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(answersPath):2: error: suite 'g' has no conversation 'capitl'; did you mean 'capital'?"))
        #expect(outcome.stderr.contains("\(answersPath):3: error: conversation 'capital' has turns 1...2, not 9"))
        #expect(outcome.stderr.contains("\(answersPath):4: error: not a valid answer line"))
    }
}
