import ChatEvalCore
import ChatEvalRunner
import ChatEvalSuites
import Testing

/// The transcript echo quoted every earlier answer, itself an echo of the transcript before it,
/// so it doubled every turn: `validate` on a 28-turn conversation passed 12 GB (issue 47). It
/// grows with the transcript now.
@Suite struct EchoLintTests {
    /// Each turn's echo holds the system prompt and every user message so far, once each: on the
    /// old echo the 20th held about a million copies of the first message.
    @Test func theTranscriptEchoHoldsEachMessageOnce() {
        var history: [ChatMessage] = []
        for turn in 1...20 {
            let answer = EchoLint.Echo.transcript.answer(system: "Be brief.", earlier: history, user: "u\(turn)")
            #expect(answer == (["Be brief."] + (1...turn).map { "u\($0)" }).joined(separator: "\n"), "turn \(turn)")
            history += [.user("u\(turn)"), .assistant(answer)]
        }
    }

    /// A 200-turn conversation is graded on every echo, and the check no echo passes is not warned.
    @Test func aLongConversationIsLinted() throws {
        let turns = (1...200).map { "      - {user: \"Turn \($0): name a sea creature.\", checks: [{icontains: whale}]}\n" }.joined()
        let suite = try SuiteLoader.parse(
            "name: long\nconversations:\n  - id: c\n    system: You answer briefly.\n    turns:\n" + turns, file: "long.yaml")
        let conversation = try #require(suite.conversations.first)
        for echo in EchoLint.Echo.allCases {
            let graded = EchoLint.graded(conversation, echo: echo)
            #expect(graded.count == 200, "\(echo)")
            #expect(!graded.contains { $0.verdict.passed }, "\(echo)")
        }
        #expect(EchoLint.warnings(suite).isEmpty)
    }
}
