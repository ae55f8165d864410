import ChatEvalTestKit
import Foundation
import Testing

/// `chateval grade`: stored answers graded without a model.
@Suite struct GradeCommandTests {
    let cli = CommandLineTests()

    private func files(suite: String, answers: String) async throws -> (URL, String, String) {
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

    @Test func goodAnswersPassAndTheJSONHoldsTheVerdicts() async throws {
        let (directory, suitePath, answersPath) = try await files(
            suite: suite,
            answers: """
                {"conversation": "capital", "turn": 1, "answer": "Paris."}
                {"conversation": "capital", "turn": 2, "answer": "Yes: Paris. is right."}
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("graded.json")
        let outcome = try await cli.run(["grade", suitePath, "--answers", answersPath, "--output", output.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("checks: 2 of 2 passed"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        let turns = ((json["conversations"] as? [[String: Any]])?.first?["turns"] as? [[String: Any]]) ?? []
        #expect(turns.count == 2)
        #expect((turns[1]["user"] as? String) == "You said Paris. Sure?")
        #expect(((turns[0]["checks"] as? [[String: Any]])?.first?["passed"] as? Bool) == true)
    }

    @Test func aFailedGateExitsWithOne() async throws {
        let (directory, suitePath, answersPath) = try await files(
            suite: suite,
            answers: """
                {"conversation": "capital", "turn": 1, "answer": "Lyon."}
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["grade", suitePath, "--answers", answersPath])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("✗ icontains"))
        #expect(outcome.stdout.contains("gate min_pass_rate"))
    }

    @Test func malformedAnswerLinesAreReportedByLine() async throws {
        let (directory, suitePath, answersPath) = try await files(
            suite: suite,
            answers: """
                {"conversation": "capital", "turn": 1, "answer": "Paris."}
                {"conversation": "capitl", "turn": 1, "answer": "x"}
                {"conversation": "capital", "turn": 9, "answer": "x"}
                not json
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["grade", suitePath, "--answers", answersPath])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(answersPath):2: error: suite 'g' has no conversation 'capitl'; did you mean 'capital'?"))
        #expect(outcome.stderr.contains("\(answersPath):3: error: conversation 'capital' has turns 1...2, not 9"))
        #expect(outcome.stderr.contains("\(answersPath):4: error: not a valid answer line"))
    }

    @Test func answersFilesWithCRLFLineEndingsAreRead() async throws {
        let (directory, suitePath, answersPath) = try await files(
            suite: suite,
            answers:
                "{\"conversation\": \"capital\", \"turn\": 1, \"answer\": \"Paris.\"}\r\n"
                + "{\"conversation\": \"capital\", \"turn\": 2, \"answer\": \"Yes: Paris. is right.\"}\r\n"
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["grade", suitePath, "--answers", answersPath])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("checks: 2 of 2 passed"))
    }

    /// Measurements no turn can have are refused by line, before any rate or conversion meets them.
    @Test(arguments: [
        ("\"prompt_tokens\": 9223372036854775807, \"reused_tokens\": 0", "prompt_tokens must be between 0 and"),
        ("\"prompt_tokens\": -9223372036854775808, \"reused_tokens\": 0", "prompt_tokens must be between 0 and"),
        ("\"prompt_tokens\": 10, \"reused_tokens\": 11", "reused_tokens must be between 0 and prompt_tokens (10), found 11"),
    ])
    func impossibleMetricsAreBadInput(_ counts: String, _ message: String) async throws {
        try await checkMetrics(counts + ", \"time_to_first_token\": 0.1", message)
    }

    @Test func negativeTimesAreBadInput() async throws {
        try await checkMetrics(
            "\"prompt_tokens\": 10, \"reused_tokens\": 0, \"time_to_first_token\": -1",
            "time_to_first_token must be a number of seconds, 0 or more, found -1")
    }

    private func checkMetrics(_ fields: String, _ message: String) async throws {
        let metrics =
            "{\(fields), \"generated_tokens\": 3, \"prefill_time\": 0.1, \"decode_time\": 0.1, \"total_time\": 0.3, "
            + "\"inter_token_latencies\": [0.05, 0.05], \"stop_reason\": \"eog\"}"
        let (directory, suitePath, answersPath) = try await files(
            suite: suite,
            answers: """
                {"conversation": "capital", "turn": 1, "answer": "Paris.", "metrics": \(metrics)}
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["grade", suitePath, "--answers", answersPath])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("\(answersPath):1: error: metrics: \(message)"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Fatal error"))
    }

    /// Model text is shown, not obeyed: no escape sequence, carriage return or bidi override
    /// reaches the terminal raw, in the report or in JSON.
    @Test func answersWithControlSequencesArePrintedEscaped() async throws {
        let hostile = "Paris\\u001b[2J\\u001b]8;;https://evil.example\\u0007click\\u001b]8;;\\u0007\\rFAKE ✓\\u202egnp.exe"
        let (directory, suitePath, answersPath) = try await files(
            suite: suite,
            answers: """
                {"conversation": "capital", "turn": 1, "answer": "\(hostile)"}
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["grade", suitePath, "--answers", answersPath, "--show-answers"])
        let raw: [Unicode.Scalar] = ["\u{1B}", "\r", "\u{07}", "\u{202E}"]
        #expect(!outcome.stdout.unicodeScalars.contains { raw.contains($0) }, "\(outcome.stdout)")
        #expect(!outcome.stderr.unicodeScalars.contains { raw.contains($0) })
        #expect(outcome.stdout.contains("Paris\\e[2J\\e]8;;https://evil.example\\x07click"))
        #expect(outcome.stdout.contains("\\rFAKE ✓\\u{202E}gnp.exe"))
    }

    let performanceSuite = """
        name: p
        conversations:
          - id: timed
            turns:
              - user: Hello
                checks:
                  - {type: ttft, max: 0.5}
                  - {type: decode-tps, min: 10}
                  - {type: stop-reason, value: max_tokens}
        """

    /// A tool that only knows the time to the first token and OpenAI's finish_reason is graded on
    /// those; a check on a metric it does not give fails, saying so.
    @Test func partialMetricsAndOpenAIFinishReasonsAreGraded() async throws {
        let (directory, suitePath, answersPath) = try await files(
            suite: performanceSuite,
            answers: """
                {"conversation": "timed", "turn": 1, "answer": "Hi!", "finish_reason": "length", "metrics": {"time_to_first_token": 0.25}}
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["grade", suitePath, "--answers", answersPath])
        #expect(outcome.stdout.contains("✓ ttft: expected ttft ≤ 500 ms, measured 250 ms"), "\(outcome.stdout)")
        // Wrapped to 100 columns: joined again to read the whole message.
        let joined = outcome.stdout.replacingOccurrences(of: #"\n +"#, with: " ", options: .regularExpression)
        #expect(
            joined.contains("✗ decode-tps: expected decode-tps ≥ 10 tokens/s; not measured for this turn (not given in the answers file)"),
            "\(outcome.stdout)")
        #expect(outcome.stdout.contains("✓ stop-reason: expected stop reason max_tokens, got max_tokens"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("checks: 2 of 3 passed"))
    }

    @Test func everyMissingOrUnknownKeyIsNamedAsTheFileSpellsIt() async throws {
        let (directory, suitePath, answersPath) = try await files(
            suite: performanceSuite,
            answers: """
                {"turn": "one"}
                {"conversation": "timed", "turn": 1, "answer": "Hi", "metrics": {"ttft": 0.2, "completion_tokens": 3, "prompt_token": 4}}
                {"conversation": "timed", "turn": 1, "answer": "Hi", "finish_reason": "tool_calls"}
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["grade", suitePath, "--answers", answersPath])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains(
                "\(answersPath):1: error: missing 'conversation', 'answer (or failure)'; 'turn' must be a whole number, found text"),
            "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "\(answersPath):2: error: unknown key 'metrics.completion_tokens'; "
                    + "write generated_tokens (OpenAI's completion_tokens); unknown key 'metrics.prompt_token'; "
                    + "did you mean 'prompt_tokens'?; unknown key 'metrics.ttft'; write time_to_first_token (seconds)"
            ), "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "\(answersPath):3: error: finish_reason 'tool_calls' is not one ChatEval grades (tool calls are out of scope); "
                    + "accepted: eog, max_tokens, stop_string, stop, length"
            ), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("promptTokens") && !outcome.stderr.contains("timeToFirstToken"))
    }

    /// A recorded run graded again with a suite edited since: answers kept, verdicts new.
    @Test func aResultFileIsGradedAgainWithTheSuitesAsTheyAreNow() async throws {
        let (directory, suitePath, answersPath) = try await files(
            suite: suite,
            answers: """
                {"conversation": "capital", "turn": 1, "answer": "Paris."}
                {"conversation": "capital", "turn": 2, "answer": "Yes: Paris. is right."}
                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A result file as a run writes it, from the graded answers.
        let graded = directory.appendingPathComponent("graded.json")
        _ = try await cli.run(["grade", suitePath, "--answers", answersPath, "--output", graded.path])
        let suiteRecord = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: graded)) as? [String: Any])
        let record = HandWrittenRecord.make(suites: [suiteRecord])
        let result = directory.appendingPathComponent("run.json")
        try JSONSerialization.data(withJSONObject: record).write(to: result)

        // The suite now wants "Lyon" in turn 1. The run was recorded outside any repository: its
        // suite is named on the command line (a recorded absolute path is never read).
        try suite.replacingOccurrences(of: "value: paris", with: "value: lyon").write(toFile: suitePath, atomically: true, encoding: .utf8)
        let regradedPath = directory.appendingPathComponent("regraded.json")
        let refused = try await cli.run(["grade", result.path])
        #expect(refused.status == 2 && refused.stderr.contains("outside the repository it was recorded in"), "\(refused.stderr)")
        let outcome = try await cli.run(["grade", result.path, suitePath, "--output", regradedPath.path])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("✗ icontains: expected \"lyon\" in the answer"), "\(outcome.stdout)")
        let regraded = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: regradedPath)) as? [String: Any])
        #expect(regraded["gates_passed"] as? Bool == false)
        #expect(regraded["run_id"] as? String == "r1")
    }

    /// A result file is data: a recorded suite path naming a system file was read and its first
    /// line echoed in the error. Now it is refused unread.
    @Test func aRecordedPathOutsideTheRepositoryIsRefusedUnread() async throws {
        let (directory, _, _) = try await files(suite: suite, answers: "")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (path, workdir) in [("/etc/passwd", "/repo"), ("/repo/../etc/passwd", "/repo"), ("../../etc/passwd", "/repo")] {
            let result = try await recordedRun(in: directory, suitePath: path, workdir: workdir)
            let outcome = try await cli.run(["grade", result.path], in: directory)
            #expect(outcome.status == 2, "\(path): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("root:"), "nothing of the file is read or shown")
            #expect(outcome.stderr.contains("name the suite files to grade with"), "\(outcome.stderr)")
        }
    }

    /// A run recorded in one checkout, graded in another: the suite of the checkout `grade` runs in.
    @Test func aRecordedSuiteIsReadFromTheRepositoryGradeRunsIn() async throws {
        let (directory, _, _) = try await files(suite: suite, answers: "")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/git"), ["init", "-q", directory.path])
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("suites"), withIntermediateDirectories: true)
        try suite.replacingOccurrences(of: "value: paris", with: "value: lyon").write(
            to: directory.appendingPathComponent("suites/capital.yaml"), atomically: true, encoding: .utf8)
        let result = try await recordedRun(
            in: directory, suitePath: "/elsewhere/checkout/suites/capital.yaml", workdir: "/elsewhere/checkout")
        let outcome = try await cli.run(["grade", result.path], in: directory)
        #expect(outcome.status == 1, "graded with this checkout's suite, which wants Lyon: \(outcome.stderr)")
        #expect(outcome.stdout.contains("✗ icontains: expected \"lyon\" in the answer"), "\(outcome.stdout)")
    }

    /// A result file of one repetition of `suite`, answered well, as recorded in the repository
    /// `workdir` with the suite at `suitePath`.
    private func recordedRun(in directory: URL, suitePath: String, workdir: String) async throws -> URL {
        let answers = directory.appendingPathComponent("a.jsonl"), graded = directory.appendingPathComponent("graded.json")
        try #"{"conversation": "capital", "turn": 1, "answer": "Paris."}"#.appending("\n")
            .appending(#"{"conversation": "capital", "turn": 2, "answer": "Yes: Paris. is right."}"#).write(
                to: answers, atomically: true, encoding: .utf8)
        _ = try await cli.run([
            "grade", directory.appendingPathComponent("s.yaml").path, "--answers", answers.path, "--output", graded.path,
        ])
        var suiteRecord = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: graded)) as? [String: Any])
        suiteRecord["path"] = suitePath
        let record = HandWrittenRecord.make(suites: [suiteRecord], workdir: workdir)
        let result = directory.appendingPathComponent("run.json")
        try JSONSerialization.data(withJSONObject: record).write(to: result)
        return result
    }

    @Test func aSuiteWithoutAnswersSaysWhatGradeNeeds() async throws {
        let outcome = try await cli.run(["grade", "suites/smoke.yaml"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("suites/smoke.yaml is a suite: grade it with --answers FILE"), "\(outcome.stderr)")
    }
}
