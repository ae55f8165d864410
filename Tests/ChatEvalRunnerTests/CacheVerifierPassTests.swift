import ChatEvalCore
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalSuites
import ChatEvalTestKit
import Synchronization
import Testing

/// A runtime that keeps a cache the way the llama.cpp runtime does — the common prefix reused,
/// the rest of the prompt evaluated in one call, each generated token but the last in a call of
/// its own — and says which calls hold it. Its greedy token after a prefix is a fixed function of
/// the prefix; with `faultyFrom` (1-based), a turn served from a warm cache picks another.
private final class CallKeepingRuntime: ChatRuntime, Sendable {
    let identity = ScriptedRuntime(replies: []).identity
    var runsInProcess: Bool { true }
    let faultyFrom: Int?
    struct State {
        var cached: [Int32] = []
        var held = PromptEvaluation()
        var lastPrompt: PromptEvaluation?
        var lastAnswer: [Int32]?
        var cold = false
        var coldTurns = 0
        var coldTurnsFollowingCalls = 0
        var passes = 0
        var oneTokenPerCall = false
        var modes: [Bool] = []
    }
    let state = Mutex(State())

    init(faultyFrom: Int? = nil) { self.faultyFrom = faultyFrom }

    /// The greedy token after `prefix`: a letter.
    static func next(_ prefix: ArraySlice<Int32>) -> Int32 {
        let hash: Int = prefix.reduce(0) { ($0 &* 31 &+ Int($1)) % 9973 }
        return 97 + Int32(hash % 26)
    }

    /// A template that ends each prompt with the assistant's header, so a turn's prompt and
    /// answer are a prefix of the next prompt.
    static func render(_ messages: [ChatMessage]) -> [Int32] {
        messages.flatMap { message in
            [message.role == .user ? 85 : message.role == .assistant ? 65 : 83] + message.content.unicodeScalars.map { Int32($0.value) }
        } + [65]
    }

    func respond(to messages: [ChatMessage], options: GenerationOptions) -> AsyncThrowingStream<ChatEvent, any Error> {
        let prompt = Self.render(messages)
        let turn = messages.filter { $0.role == .user }.count
        let (answer, reused) = state.withLock { state -> ([Int32], Int) in
            var common = 0
            while common < min(state.cached.count, prompt.count - 1), state.cached[common] == prompt[common] { common += 1 }
            if state.cold { common = 0 }
            state.cold = false
            state.cached = Array(prompt.prefix(common))
            state.held.keep(before: common)
            if state.oneTokenPerCall {
                for token in prompt[common...] { state.held.append([token]) }
            } else {
                state.held.append(Array(prompt[common...]))
            }
            state.cached = prompt
            state.lastPrompt = state.held
            let faulty = faultyFrom.map { common > 0 && turn >= $0 } ?? false
            var answer: [Int32] = []
            for index in 0..<options.maxTokens {
                var token = Self.next(state.cached[...])
                if faulty, index == 1 { token = 90 }  // "Z"
                answer.append(token)
                if index < options.maxTokens - 1 {
                    state.cached.append(token)
                    state.held.append([token])
                }
            }
            state.lastAnswer = answer
            return (answer, common)
        }
        let text = String(String.UnicodeScalarView(answer.compactMap { UnicodeScalar(UInt32($0)) }))
        return AsyncThrowingStream { continuation in
            continuation.yield(.chunk(text))
            continuation.yield(.info(ScriptedRuntime.metrics(prompt: prompt.count, reused: reused, generated: answer.count)))
            continuation.finish()
        }
    }

    func resetSession() async {
        state.withLock {
            $0.cached = []
            $0.held = PromptEvaluation()
        }
    }
    func evaluateNextTurnCold() async {
        state.withLock {
            $0.cold = true
            $0.coldTurns += 1
            $0.cached = []
            $0.held = PromptEvaluation()
        }
    }
    func evaluateNextTurnCold(following evaluation: PromptEvaluation) async {
        await evaluateNextTurnCold()
        state.withLock { $0.coldTurnsFollowingCalls += 1 }
    }
    func evaluateOneTokenPerCall(_ enabled: Bool) async {
        state.withLock {
            $0.oneTokenPerCall = enabled
            $0.modes.append(enabled)
        }
    }
    func lastAnswerTokens() async -> [Int32]? { state.withLock { $0.lastAnswer } }
    func lastPromptEvaluation() async -> PromptEvaluation? { state.withLock { $0.lastPrompt } }
    func sessionEvaluation() async -> PromptEvaluation? { state.withLock { $0.held } }
    func greedyPredictions(of tokens: [Int32], in evaluation: PromptEvaluation) async -> [Int32?]? {
        state.withLock { state in
            state.passes += 1
            state.cached = []
            state.held = PromptEvaluation()
        }
        var position = 0
        var predictions: [Int32?] = []
        for call in evaluation.calls {
            guard call.start == position, call.end <= tokens.count, call.held == call.tokens.count else { return nil }
            predictions.append(Self.next(tokens[..<call.end]))
            position = call.end
        }
        return predictions
    }
}

/// `CacheVerifier` checks a session against cold evaluations in as few passes over its engine
/// calls as its cache allows, and replays cold turn by turn only to say where and what a
/// divergence is.
@Suite struct CacheVerifierPassTests {
    static func suite(window: Bool = false, maxTokens: Int = 4) throws -> Suite {
        try SuiteLoader.parse(
            "name: s\ndefaults: {max_tokens: \(maxTokens)\(window ? ", max_messages: 3" : "")}\nconversations:\n"
                + "  - id: chat\n    turns: [one, two, three, four]\n  - id: other\n    turns: [only]\n",
            file: "s.yaml")
    }

    @Test func aFaithfulCacheIsCheckedInOnePassAConversationAndNoTurnIsReplayedCold() async throws {
        let runtime = CallKeepingRuntime()
        let result = await CacheVerifier(runtime: runtime).verify([try Self.suite()])
        #expect(result.passed)
        #expect(result.conversations.map(\.turnsIdentical) == [4, 1])
        #expect(result.conversations.map(\.coldPasses) == [1, 1])
        #expect(runtime.state.withLock { ($0.passes, $0.coldTurns) } == (2, 0))
        #expect(result.conversations.allSatisfy { $0.sessionSeconds != nil && $0.coldSeconds != nil })
    }

    /// One-token answers: the prompt's last call predicts each whole answer.
    @Test func oneTokenAnswersAreCheckedInThePassToo() async throws {
        let runtime = CallKeepingRuntime()
        let result = await CacheVerifier(runtime: runtime).verify([try Self.suite(maxTokens: 1)])
        #expect(result.passed && result.conversations.map(\.coldPasses) == [1, 1])
        let faulty = await CacheVerifier(runtime: CallKeepingRuntime(faultyFrom: 2)).verify([try Self.suite(maxTokens: 2)])
        #expect(faulty.faults.first?.divergence?.turn == 2, "a two-token answer whose second token differs")
    }

    /// A history window makes turn 3 cut inside turn 1's prompt call: no cold evaluation can make
    /// that call alike without trimming, so the conversation is replayed again one token per call
    /// both ways (then every cut falls between calls) and compared turn by turn; the mode is
    /// switched off again for the next conversation, which passes in one pass.
    @Test func aCacheCutInsideACallIsReplayedOneTokenPerCallBothWays() async throws {
        let runtime = CallKeepingRuntime()
        let result = await CacheVerifier(runtime: runtime).verify([try Self.suite(window: true)])
        #expect(result.passed)
        let chat = try #require(result.conversations.first)
        #expect(chat.turnsIdentical == 4 && chat.oneTokenPerCall && chat.coldPasses == nil)
        #expect(result.conversations.last?.coldPasses == 1 && result.conversations.last?.oneTokenPerCall == false)
        #expect(runtime.state.withLock { ($0.modes, $0.coldTurns, $0.coldTurnsFollowingCalls) } == ([true, false], 4, 4))
    }

    /// A turn answered otherwise from a warm cache: the pass sees a greedy token differ, and the
    /// turn-by-turn cold replay names the turn and the token as before.
    @Test func aDivergenceIsFoundByThePassAndNamedByAColdReplay() async throws {
        let runtime = CallKeepingRuntime(faultyFrom: 3)
        let result = await CacheVerifier(runtime: runtime).verify([try Self.suite()])
        #expect(!result.passed)
        let fault = try #require(result.faults.first)
        #expect(fault.conversation == "chat" && fault.turnsIdentical == 2 && fault.coldPasses == nil)
        let divergence = try #require(fault.divergence)
        #expect(divergence.turn == 3 && divergence.token == 1 && divergence.sessionTokenID == 90)
        #expect(
            runtime.state.withLock { ($0.coldTurns, $0.coldTurnsFollowingCalls) } == (4, 4),
            "the faulty conversation was replayed cold, turn by turn, in the session's calls")
    }
}
