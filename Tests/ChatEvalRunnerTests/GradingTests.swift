import ChatEvalCore
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Testing

@Suite struct GradingTests {
    private let suite: Suite

    init() throws {
        suite = try SuiteLoader.parse(
            """
            name: s
            gates:
              min_pass_rate: 0.75
              max_failed_turns: 0
              metrics: [{metric: ttft, stat: max, max: 0.5}]
            conversations:
              - id: memory
                vars: {city: Lyon}
                checks: [{type: generated-tokens, aggregate: max, max: 10}]
                turns:
                  - user: I live in {{vars.city}}.
                    checks: [{type: icontains, value: "{{vars.city}}"}]
                  - user: "You said {{turn1.answer}}"
                    checks:
                      - {type: contains, value: "{{turn1.answer}}", weight: 3}
                      - {type: equals, value: "{{turn2.user}}"}
                  - user: Where?
                    checks: [{type: failure, value: context_overflow}]
            """, file: "s.yaml")
    }

    private func turn(_ index: Int, _ user: String, answer: String) -> ReplayedTurn {
        ReplayedTurn(
            index: index, user: user, messagesSent: 2, status: .answered, answer: answer,
            metrics: ScriptedRuntime.metrics(prompt: 10 * (index + 1)))
    }

    @Test func placeholdersAreFilledFromTheConversationAsItRan() throws {
        let turns = [
            turn(0, "I live in Lyon.", answer: "Nice, LYON is lovely."),
            turn(1, "You said Nice, LYON is lovely.", answer: "I said: Nice, LYON is lovely."),
            ReplayedTurn(index: 2, user: "Where?", messagesSent: 6, status: .failed, failure: RuntimeFailure(.contextOverflow, "full")),
        ]
        let graded = ConversationGrader.grade(suite.conversations[0], turns: turns)
        #expect(graded.turns[0].checks?.map(\.passed) == [true])
        #expect(graded.turns[1].checks?.map(\.passed) == [true, false])  // contains the quoted answer; is not equal to the user text
        #expect(graded.turns[1].score == 0.75)  // weights 3 and 1
        #expect(graded.turns[2].checks?.map(\.passed) == [true])  // the expected failure happened
        #expect(graded.checks.map(\.passed) == [true])  // conversation: at most 10 tokens per turn
    }

    @Test func turnsThatDidNotRunFailTheirChecksAndSayWhy() throws {
        let turns = [
            ReplayedTurn(
                index: 0, user: "I live in Lyon.", messagesSent: 2, status: .failed, failure: RuntimeFailure(.unavailable, "server gone")),
            ReplayedTurn(index: 1, user: "x", messagesSent: 0, status: .skipped, skipReason: "turn 1 failed (unavailable)"),
            ReplayedTurn(index: 2, user: "y", messagesSent: 0, status: .skipped, skipReason: "turn 1 failed (unavailable)"),
        ]
        let graded = ConversationGrader.grade(suite.conversations[0], turns: turns)
        #expect(graded.turns[0].checks?.first?.passed == false)
        #expect(graded.turns[1].checks?.allSatisfy { !$0.passed && $0.detail.contains("turn 1 failed") } == true)
        #expect(graded.turns[2].checks?.first?.passed == false)  // a skipped turn is not the expected overflow
        #expect(graded.turns[1].checks?.map(\.weight) == [3, 1])  // weights hold for turns that did not run
    }

    @Test func gatesAreValuesWithWhatWasFound() throws {
        let good = ConversationGrader.grade(
            suite.conversations[0],
            turns: [
                turn(0, "I live in Lyon.", answer: "Lyon!"),
                turn(1, "You said Lyon!", answer: "You said Lyon!"),
                ReplayedTurn(index: 2, user: "Where?", messagesSent: 6, status: .failed, failure: RuntimeFailure(.contextOverflow, "full")),
            ])
        let record = ConversationRecord(
            id: "memory", repetition: 1, warmup: false, systemPrompt: nil, options: GenerationOptions(),
            turns: good.turns, checks: good.checks)
        let outcomes = GateEvaluator.evaluate(suite.gates, conversations: [record])
        #expect(outcomes.map(\.gate) == ["min_pass_rate", "max_failed_turns", "ttft max"])
        #expect(outcomes.map(\.passed) == [true, true, true])  // the overflow was expected, so it is no unexpected failure
        #expect(outcomes[0].found == "1 (5 of 5 checks)")

        var slow = record
        slow.turns[0].metrics?.timeToFirstToken = 0.9
        let slowOutcome = try #require(GateEvaluator.evaluate(suite.gates, conversations: [slow]).last)
        #expect(slowOutcome.passed == false)
        #expect(slowOutcome.found == "0.9 over 2 turns")
    }

    /// A suite without gates passed with "0/3 checks passed" (exit 0, "All gates passed."): now
    /// it is held to every check passing and no unexpected failure, and says the gates are implied.
    @Test func aSuiteWithoutGatesIsHeldToEveryCheck() throws {
        let plain = try SuiteLoader.parse(
            """
            name: plain
            conversations:
              - id: c
                turns:
                  - user: Capital of France?
                    checks: [{type: icontains, value: Paris}]
                  - user: And of Italy?
                    checks: [{type: icontains, value: Rome}]
            """, file: "plain.yaml")
        #expect(plain.gates.isEmpty)
        func outcomes(_ answers: [String?]) -> [GateOutcome] {
            let turns = answers.enumerated().map { index, answer in
                answer.map { turn(index, "q", answer: $0) }
                    ?? ReplayedTurn(index: index, user: "q", messagesSent: 2, status: .failed, failure: RuntimeFailure(.timeout, "slow"))
            }
            let graded = ConversationRecord.graded(plain.conversations[0], turns: turns, repetition: 1, warmup: false)
            return GateEvaluator.evaluate(plain.gates, conversations: [graded])
        }
        let passing = outcomes(["Paris.", "Rome."])
        #expect(passing.map(\.gate) == ["min_pass_rate", "max_failed_turns"])
        #expect(passing.allSatisfy { $0.passed && !$0.isDeclared })
        #expect(passing[0].described == "min_pass_rate ≥ 1 (implied: no gates declared)")

        let oneWrong = outcomes(["Paris.", "Madrid."])
        #expect(oneWrong.map(\.passed) == [false, true])
        #expect(oneWrong[0].found == "0.5 (1 of 2 checks)")

        let failedTurn = outcomes(["Paris.", nil])
        #expect(failedTurn.map(\.passed) == [false, false])
        #expect(failedTurn[1].found == "1 unexpected failures")

        // Declared gates are evaluated as written, with nothing implied beside them.
        let declared = GateEvaluator.evaluate(SuiteGates(minimumPassRate: 0.5), conversations: [])
        #expect(declared.map(\.gate) == ["min_pass_rate"] && declared.allSatisfy(\.isDeclared))
    }
}
