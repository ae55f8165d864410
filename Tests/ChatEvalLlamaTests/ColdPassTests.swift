import ChatEvalCore
import ChatEvalRuntime
import Testing

@testable import ChatEvalLlama

/// On the real model: the record of the engine calls a session's cache holds
/// (`PromptEvaluation`), and a cold pass over those calls — what `run --verify-cache` compares
/// the session with.
extension RealModelTests {
    @Suite struct ColdPassTests {
        static let questions = ["What is the capital of France?", "And of Italy?", "Which of the two cities is larger?"]

        /// What the session reports after each turn, as the replayer finishes it.
        actor Record {
            var prompts: [PromptEvaluation?] = []
            var held: [PromptEvaluation?] = []
            var cached: [[Int32]] = []
            var answers: [[Int32]] = []
            func add(_ prompt: PromptEvaluation?, _ after: PromptEvaluation?, _ tokens: [Int32], _ answer: [Int32]) {
                prompts.append(prompt)
                held.append(after)
                cached.append(tokens)
                answers.append(answer)
            }
        }

        static func replay(_ runtime: LlamaChatRuntime, maxMessages: Int? = nil, maxTokens: Int = 24) async -> Record {
            let script = ConversationScript(
                id: "calls", systemPrompt: "You are a concise assistant. Answer in one short sentence.",
                options: GenerationOptions(maxTokens: maxTokens), maxMessages: maxMessages,
                userMessages: questions.map { TemplateText(literal: $0) })
            let record = Record()
            await runtime.recordEngineCalls(true)
            _ = await ConversationReplayer(runtime: runtime, cacheMode: .session).replay(script) { _ in
                await record.add(
                    await runtime.lastPromptEvaluation(), await runtime.sessionEvaluation(), await runtime.sessionTokens(),
                    await runtime.lastAnswerTokens() ?? [])
            }
            return record
        }

        /// After every turn the calls hold exactly the cached tokens, and the prompt's calls held
        /// the prompt as rendered. A history window makes turn 3 cut inside turn 1's prompt call:
        /// the cut call keeps its tokens and holds fewer.
        @Test func theCallsHoldExactlyWhatTheCacheHolds() async throws {
            let runtime = try RealModel.runtime()
            let record = await Self.replay(runtime, maxMessages: 3)
            let held = await record.held, cached = await record.cached, prompts = await record.prompts
            try #require(held.count == 3)
            for turn in 0..<3 {
                let calls = try #require(held[turn], "turn \(turn + 1)")
                #expect(calls.heldTokens == cached[turn], "turn \(turn + 1)")
                #expect(prompts[turn] != nil, "turn \(turn + 1): the prompt's calls hold the prompt")
            }
            let cut = try #require(prompts[2]?.calls.first)
            #expect(cut.held < cut.tokens.count, "the window cut inside turn 1's prompt call: \(cut.held) of \(cut.tokens.count)")
            #expect(!(try #require(held[1])).isPrefix(of: try #require(prompts[2])), "turn 3 re-evaluated part of turn 2's cache")
        }

        /// Without a window each turn's cache goes on into the next prompt unchanged (unless an
        /// answer's tokens are not how its text re-tokenizes), so one cold pass over the last
        /// turn's calls of each unbroken run predicts every answer token of its turns — at the
        /// engine's batch size (512), where a plain cold replay sums a whole prompt in one batch.
        @Test func aColdPassOverTheSessionsCallsPredictsEveryAnswerToken() async throws {
            let runtime = try RealModel.runtime()
            #expect(runtime.identity.batchSize == 512)
            let record = await Self.replay(runtime)
            let held = try await record.held.map { try #require($0) }, prompts = try await record.prompts.map { try #require($0) }
            let answers = await record.answers
            try #require(held.count == 3 && answers.allSatisfy { !$0.isEmpty })
            #expect(held[0].isPrefix(of: prompts[1]), "turn 1's prompt and answer are turn 2's prompt's start")
            var first = 0
            for last in 0..<3 where last == 2 || !held[last].isPrefix(of: prompts[last + 1]) {
                let pass = held[last]
                let predictions = try #require(await runtime.greedyPredictions(of: pass.heldTokens, in: pass))
                #expect(predictions.count == pass.calls.count && !predictions.contains(nil))
                var next: [Int: Int32] = [:]
                for (call, prediction) in zip(pass.calls, predictions) { next[call.end] = prediction }
                for turn in first...last {
                    for (offset, token) in answers[turn].enumerated() {
                        #expect(next[prompts[turn].heldCount + offset] == token, "turn \(turn + 1) token \(offset)")
                    }
                }
                first = last + 1
            }
            // A pass forgets the session: the next turn starts from an empty cache.
            #expect(await runtime.sessionTokens().isEmpty)
        }

        /// An ordinary run keeps no record of its engine calls (its token loop appends none): only
        /// `run --verify-cache` asks the runtime to keep one.
        @Test func withoutRecordingNoCallIsKept() async throws {
            let runtime = try RealModel.runtime()
            await runtime.recordEngineCalls(false)
            let script = ConversationScript(
                id: "plain", options: GenerationOptions(maxTokens: 8), userMessages: [TemplateText(literal: Self.questions[0])])
            let record = Record()
            _ = await ConversationReplayer(runtime: runtime, cacheMode: .session).replay(script) { _ in
                await record.add(
                    await runtime.lastPromptEvaluation(), await runtime.sessionEvaluation(), await runtime.sessionTokens(),
                    await runtime.lastAnswerTokens() ?? [])
            }
            #expect(await record.cached.first?.isEmpty == false, "the turn was answered and cached")
            let prompts = await record.prompts, held = await record.held
            #expect(prompts == [nil] && held == [nil])
            let recorded = await Self.replay(runtime)
            #expect(await recorded.prompts.allSatisfy { $0 != nil }, "recorded once asked")
        }

        /// One token per call, the same history window cuts only between calls: nothing a cold
        /// side would have to trim. A cut call is refused by a cold pass.
        @Test func oneTokenPerCallNoTrimCutsInsideACall() async throws {
            let runtime = try RealModel.runtime()
            let cut = await Self.replay(runtime, maxMessages: 3)
            let cutCalls = try #require(await cut.held.last ?? nil)
            #expect(cutCalls.cutsACall)
            #expect(await runtime.greedyPredictions(of: cutCalls.heldTokens, in: cutCalls) == nil)
            await runtime.evaluateOneTokenPerCall(true)
            let record = await Self.replay(runtime, maxMessages: 3)
            await runtime.evaluateOneTokenPerCall(false)
            let held = await record.held, prompts = await record.prompts
            #expect(held.count == 3 && prompts.allSatisfy { $0 != nil })
            for calls in held + prompts {
                let calls = try #require(calls)
                #expect(!calls.cutsACall && calls.calls.allSatisfy { $0.tokens.count == 1 })
            }
        }

        /// Calls that do not follow on from position 0, or reach past the tokens, are refused.
        @Test func callsThatDoNotFollowOnAreRefused() async throws {
            let runtime = try RealModel.runtime()
            var gap = PromptEvaluation()
            gap.calls = [PromptEvaluation.Call(start: 1, tokens: [1, 2])]
            #expect(await runtime.greedyPredictions(of: [1, 2, 3], in: gap) == nil)
            var past = PromptEvaluation()
            past.append([1, 2, 3, 4])
            #expect(await runtime.greedyPredictions(of: [1, 2], in: past) == nil)
        }
    }
}
