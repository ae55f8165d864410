import ChatEvalCore
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalSuites
import ChatEvalTestKit
import Synchronization
import Testing

/// A runtime whose answer depends only on the history it is sent — unless its cache is faulty:
/// then a turn served from a warm session answers otherwise from `faultyFrom` (1-based) on.
private final class CacheSensitiveRuntime: ChatRuntime, Sendable {
    let identity = ScriptedRuntime(replies: []).identity
    var runsInProcess: Bool { false }
    private let warm = Mutex(false)
    private let lastTokens = Mutex<[Int32]?>(nil)
    let temperatures = Mutex<Set<Double>>([])
    let faultyFrom: Int?
    let tokenIDs: Bool
    let failAt: Int?

    init(faultyFrom: Int?, tokenIDs: Bool = true, failAt: Int? = nil) {
        self.faultyFrom = faultyFrom
        self.tokenIDs = tokenIDs
        self.failAt = failAt
    }

    func respond(to messages: [ChatMessage], options: GenerationOptions) -> AsyncThrowingStream<ChatEvent, any Error> {
        let turn = messages.filter { $0.role == .user }.count
        temperatures.withLock { _ = $0.insert(options.temperature) }
        let servedWarm = warm.withLock { value in
            defer { value = true }
            return value
        }
        var answer = "answer \(turn) after \(messages.count) messages."
        if let faultyFrom, servedWarm, turn >= faultyFrom { answer = "answer \(turn) after \(messages.count) messageZ." }
        let tokens = answer.unicodeScalars.map { Int32($0.value) }
        lastTokens.withLock { $0 = tokenIDs ? tokens : nil }
        let failing = failAt == turn
        return AsyncThrowingStream { continuation in
            if failing {
                continuation.finish(throwing: RuntimeFailure(.contextOverflow, "the prompt does not fit"))
                return
            }
            continuation.yield(.chunk(answer))
            continuation.yield(.info(ScriptedRuntime.metrics(prompt: 10 * turn, generated: tokens.count)))
            continuation.finish()
        }
    }

    func resetSession() async { warm.withLock { $0 = false } }
    func lastAnswerTokens() async -> [Int32]? { lastTokens.withLock { $0 } }
}

@Suite struct CacheVerifierTests {
    private func suite() throws -> Suite {
        try SuiteLoader.parse(
            "name: s\ndefaults: {temperature: 0.7}\nconversations:\n"
                + "  - id: chat\n    turns: [one, two, three]\n  - id: other\n    turns: [only]\n",
            file: "s.yaml")
    }

    @Test func aFaithfulCacheGivesIdenticalAnswersAndPasses() async throws {
        let runtime = CacheSensitiveRuntime(faultyFrom: nil)
        let result = await CacheVerifier(runtime: runtime).verify([try suite()])
        #expect(result.passed && result.faults.isEmpty)
        #expect(runtime.temperatures.withLock { $0 } == [0], "the suite samples at 0.7; verification decodes greedily")
        #expect(result.conversations.map(\.turnsIdentical) == [3, 1])
    }

    /// The fault shows at the turn it starts, by token (index and ids) and by character.
    @Test func aCacheThatChangesAnAnswerFailsNamingTheTurnAndTheFirstDifferingToken() async throws {
        let result = await CacheVerifier(runtime: CacheSensitiveRuntime(faultyFrom: 2)).verify([try suite()])
        #expect(!result.passed)
        let fault = try #require(result.faults.first)
        #expect(fault.conversation == "chat" && fault.turnsIdentical == 1)
        let divergence = try #require(fault.divergence)
        #expect(divergence.turn == 2)
        let offset = "answer 2 after 4 message".count
        #expect(divergence.token == offset && divergence.text?.offset == offset)
        #expect(divergence.sessionTokenID == Int32(UnicodeScalar("Z").value) && divergence.coldTokenID == Int32(UnicodeScalar("s").value))
        #expect(result.conversations.last?.divergence == nil, "the one-turn conversation never reuses")
    }

    @Test func withoutTokenIDsTheTextIsCompared() async throws {
        let result = await CacheVerifier(runtime: CacheSensitiveRuntime(faultyFrom: 3, tokenIDs: false)).verify([try suite()])
        let divergence = try #require(result.faults.first?.divergence)
        #expect(divergence.turn == 3 && divergence.token == nil && divergence.text?.first.hasPrefix("Z.") == true)
    }

    @Test func aTurnThatFailsBothWaysEndsTheComparisonWithoutAFault() async throws {
        let result = await CacheVerifier(runtime: CacheSensitiveRuntime(faultyFrom: nil, failAt: 2)).verify([try suite()])
        #expect(result.passed)
        #expect(result.conversations.first?.turnsIdentical == 1)
        #expect(result.conversations.first?.endedAlike == "turn 2 failed both ways (context_overflow)")
    }
}
