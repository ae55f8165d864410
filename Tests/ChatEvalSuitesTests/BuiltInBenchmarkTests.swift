import ChatEvalCore
import ChatEvalSuites
import Testing

/// The chat benchmark a run replays when no suite is in sight (issue 31): multi-turn chats at
/// known depths, nothing a base model cannot pass.
@Suite struct BuiltInBenchmarkTests {
    @Test func itParsesAsASuiteOfThreeFourTurnChatsAtKnownDepths() throws {
        let suite = try BuiltInBenchmark.suite()
        #expect(suite.path == BuiltInSuite.chatBenchmarkPath)
        #expect(suite.conversations.map(\.id) == ["short", "document-500", "document-1500"])
        #expect(suite.conversations.allSatisfy { $0.script.userMessages.count == 4 })
        let openingWords = suite.conversations.map { $0.script.userMessages[0].description.split(separator: " ").count }
        #expect(openingWords[0] < 10)
        #expect((400...500).contains(openingWords[1]), "\(openingWords)")
        #expect((1_400...1_500).contains(openingWords[2]), "\(openingWords)")
        #expect(suite.conversations.allSatisfy { $0.script.options.maxTokens == 64 })
    }

    /// No check on an answer: a base model that rambles passes; only a turn failing fails it.
    @Test func itChecksNoAnswerAndGatesOnlyOnFailedTurns() throws {
        let suite = try BuiltInBenchmark.suite()
        #expect(suite.checkCount == 0)
        #expect(suite.gates.maximumFailedTurns == 0 && suite.gates.minimumPassRate == nil && suite.gates.metrics.isEmpty)
        #expect(suite.warnings.isEmpty, "\(suite.warnings)")
    }
}
