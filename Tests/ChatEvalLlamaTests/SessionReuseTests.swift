import ChatEvalCore
import ChatEvalRuntime
import Testing

@testable import ChatEvalLlama

/// On the real model: the KV cache carries over exactly what it should between turns.
extension RealModelTests {
    @Suite struct SessionReuseTests {
        let userTurns = [
            "Name a fruit that is yellow.",
            "What colour is the sky on a clear day?",
            "Tell me a word that rhymes with cat.",
            "Count from one to three.",
        ]

        /// On both models: Gemma 3's sliding-window cache must keep the prefix too.
        @Test(arguments: ["chat", "gemma"])
        func eachTurnReusesExactlyTheCommonPrefixOfTheCachedHistory(_ model: String) async throws {
            let runtime = try model == "gemma" ? RealModel.gemma() : RealModel.runtime()
            await runtime.resetSession()
            var history: [ChatMessage] = [.system("Answer briefly.")]
            var previousPromptTokens: [Int32] = []
            for (index, user) in userTurns.enumerated() {
                history.append(.user(user))
                let cached = await runtime.sessionTokens()
                let prompt = try #require(runtime.promptTokens(for: history))
                let turn = try await respond(runtime, history)

                let common = zip(cached, prompt).prefix { $0 == $1 }.count
                #expect(turn.metrics.promptTokens == prompt.count)
                #expect(turn.metrics.reusedTokens == min(common, prompt.count - 1), "turn \(index + 1)")
                #expect(turn.metrics.evaluatedTokens == prompt.count - (turn.metrics.reusedTokens ?? -1))
                if index == 0 {
                    #expect(turn.metrics.reusedTokens == 0)
                } else {
                    // The template keeps the earlier history as a prefix: everything rendered for the
                    // previous turn is served from the cache, and only the new tail is evaluated.
                    #expect(Array(prompt.prefix(previousPromptTokens.count)) == previousPromptTokens)
                    #expect((turn.metrics.reusedTokens ?? 0) >= previousPromptTokens.count, "turn \(index + 1)")
                    #expect((turn.metrics.evaluatedTokens ?? .max) < prompt.count / 2, "turn \(index + 1)")
                }
                previousPromptTokens = prompt
                history.append(.assistant(turn.text))
            }
        }

        /// Reuse accounted for: what the cache held and could serve (reusable), what it did
        /// (efficiency), and where a miss comes from. A history window of three messages drops the
        /// first exchange at turn 3, so the prompt diverges from the cache inside what the previous
        /// prompt was — earlier turns sent differently — and those tokens are evaluated again.
        @Test func aMissIsCountedCostedAndExplained() async throws {
            let runtime = try RealModel.runtime()
            let script = ConversationScript(
                id: "window", systemPrompt: "Answer briefly.", options: GenerationOptions(maxTokens: 12), maxMessages: 3,
                userMessages: userTurns.prefix(3).map { TemplateText(literal: $0) })
            let results = await ConversationReplayer(runtime: runtime, cacheMode: .session).replay(script)
            let metrics = results.compactMap(\.metrics)
            try #require(metrics.count == 3)
            #expect(metrics[0].reusableTokens == 0 && metrics[0].reuseEfficiency == nil && metrics[0].reuseMiss == nil)
            #expect(metrics[1].reuseEfficiency == 1 && metrics[1].reuseMiss == nil, "the full history is a prefix: nothing missed")
            let third = metrics[2]
            let miss = try #require(third.reuseMiss)
            #expect(miss.cause == .earlierTurnsRerendered)
            #expect((third.reusedTokens ?? 0) == miss.position && miss.position > 0, "reused up to the divergence")
            #expect((third.missedTokens ?? 0) > 0 && (third.reuseEfficiency ?? 1) < 1)
            #expect((third.missedPrefillTime ?? 0) > 0)
            #expect(miss.cached != miss.sent)
            // Where the time went: the parts add up to the TTFT, the prefill part is the prefill
            // measured, and the lost tokens' share of it is the miss's cost.
            for turn in metrics {
                let parts = try #require(turn.firstTokenParts)
                #expect(abs(parts.total - turn.timeToFirstToken) < 0.001, "\(parts) against \(turn.timeToFirstToken)")
                #expect(abs(parts.prefill - (turn.prefillTime ?? -1)) < 1e-6)
            }
            let parts = try #require(third.firstTokenParts)
            #expect(abs(parts.reevaluated - (third.missedPrefillTime ?? -1)) < 1e-6 && parts.reevaluated > 0)
            #expect(metrics[1].firstTokenParts?.reevaluated == 0)
        }

        /// Each cause from what is sent back: a changed system prompt (a date in it) diverges
        /// inside the previous prompt; an answer sent back rewritten diverges inside the previous
        /// answer; one sent back without its last character diverges in its last tokens. (A
        /// trailing space changes nothing: the cache never held the end-of-generation token, so
        /// everything it held is still a prefix.)
        @Test(arguments: [
            ("system", ReuseMiss.Cause.earlierTurnsRerendered), ("rewritten", .previousAnswerRewritten), ("boundary", .answerBoundary),
        ])
        func eachMissHasTheCauseOfWhereItDiverged(_ change: String, _ cause: ReuseMiss.Cause) async throws {
            let runtime = try RealModel.runtime()
            await runtime.resetSession()
            let first: [ChatMessage] = [.system("Answer briefly. Today is Monday."), .user("Name a fruit that is yellow.")]
            // The boundary case needs an answer that ended itself: one cut at max_tokens leaves its
            // last token out of the cache, so a character dropped from it changes nothing cached.
            let answered = try await respond(runtime, first, options: GenerationOptions(maxTokens: change == "boundary" ? 160 : 24))
            let answer = answered.text
            try #require(answer.count > 8, "the answer is long enough to rewrite: \(answer)")
            if change == "boundary" {
                try #require(answered.metrics.stopReason == .endOfGeneration, "the answer ended itself: \(answer)")
            }
            var sent = first + [.assistant(answer), .user("And a red one?")]
            switch change {
            case "system": sent[0] = .system("Answer briefly. Today is Tuesday.")
            case "rewritten": sent[2] = .assistant("Well: " + answer.dropFirst(3))
            default: sent[2] = .assistant(String(answer.dropLast()))
            }
            let turn = try await respond(runtime, sent)
            let miss = try #require(turn.metrics.reuseMiss, "\(change): nothing missed")
            #expect(miss.cause == cause, "\(change): \(miss)")
            #expect((turn.metrics.reuseEfficiency ?? 1) < 1)
        }

        /// Gemma 3's 512-token sliding window. A cache of the window only (llama-server's default)
        /// cannot serve a prefix the conversation has moved more than a window past: a system prompt
        /// changed near its start, after a 1,300-token history, is a miss of cause "cache not
        /// trimmable" and everything is evaluated again — and the answer is the one the full cache
        /// gives, where the changed prompt reuses its common prefix ("earlier turns").
        @Test func aWindowedSlidingWindowCacheCannotTrimPastItsWindow() async throws {
            let path = try #require(RealModel.gemmaPath, "CHATEVAL_GEMMA_MODEL is not set")
            let windowed = try LlamaChatRuntime(
                .init(modelPath: path, chatTemplate: "gemma", contextSize: 4096, threads: 2, slidingWindowCache: .window))
            #expect(windowed.identity.slidingWindow == 512 && windowed.identity.slidingWindowCache == .window)
            let full = try RealModel.gemma()
            #expect(full.identity.slidingWindowCache == .full)
            #expect((windowed.identity.kvCacheBytes ?? .max) < (full.identity.kvCacheBytes ?? 0), "the windowed layers hold fewer cells")

            let facts = (1...75).map { "Fact \($0): the number \($0) comes after \($0 - 1)." }.joined(separator: " ")
            func system(_ day: String) -> ChatMessage { .system("Today is \(day). Read these facts. \(facts)") }
            let question = ChatMessage.user("Name a fruit that is yellow.")
            var answers: [String: String] = [:]
            for (name, runtime) in [("window", windowed), ("full", full)] {
                await runtime.resetSession()
                let first = try await respond(runtime, [system("Monday"), question], options: GenerationOptions(maxTokens: 8))
                try #require(first.metrics.promptTokens > 1_100, "a history longer than the window and the batch")
                let second = try await respond(runtime, [system("Tuesday"), question], options: GenerationOptions(maxTokens: 8))
                let miss = try #require(second.metrics.reuseMiss, "\(name): nothing missed")
                let reused = second.metrics.reusedTokens ?? -1
                if name == "window" {
                    #expect(miss.cause == .cacheNotTrimmable, "\(miss)")
                    #expect(reused == 0 && second.metrics.evaluatedTokens == second.metrics.promptTokens)
                } else {
                    #expect(miss.cause == .earlierTurnsRerendered, "\(miss)")
                    #expect(reused == miss.position && reused > 0 && reused < 16)
                }
                let cached = first.metrics.promptTokens + first.metrics.generatedTokens - 1
                #expect(second.metrics.reusableTokens == min(cached, second.metrics.promptTokens - 1))
                answers[name] = second.text
            }
            #expect(answers["window"] == answers["full"], "greedy answers agree: the windowed cache was not used with entries missing")
        }

        /// `--cache-mode cold` drops the cache before every turn and says so: what a session would
        /// have reused is still counted as reusable, and the miss's cause is the cache mode.
        @Test func coldModeCountsWhatASessionWouldHaveReused() async throws {
            let runtime = try RealModel.runtime()
            let script = ConversationScript(
                id: "cold", systemPrompt: "Answer briefly.", options: GenerationOptions(maxTokens: 12),
                userMessages: userTurns.prefix(3).map { TemplateText(literal: $0) })
            let metrics = await ConversationReplayer(runtime: runtime, cacheMode: .cold).replay(script).compactMap(\.metrics)
            try #require(metrics.count == 3)
            #expect(metrics[0].reusableTokens == 0 && metrics[0].reuseMiss == nil, "a conversation starts empty in any mode")
            for turn in metrics.dropFirst() {
                #expect(turn.reuseMiss?.cause == .coldCache && turn.reuseMiss?.position == 0)
                #expect((turn.reusableTokens ?? 0) > 0 && turn.reuseEfficiency == 0)
                #expect(turn.missedTokens == turn.reusableTokens)
            }
            // The session that follows is warm again.
            let warm = await ConversationReplayer(runtime: runtime, cacheMode: .session).replay(script).compactMap(\.metrics)
            #expect(warm.dropFirst().allSatisfy { $0.reuseEfficiency == 1 && $0.reuseMiss == nil })
        }

        @Test func coldModeReusesNothing() async throws {
            let runtime = try RealModel.runtime()
            let script = ConversationScript(
                id: "cold", systemPrompt: "Answer briefly.", options: GenerationOptions(maxTokens: 12),
                userMessages: userTurns.prefix(3).map { TemplateText(literal: $0) })
            let results = await ConversationReplayer(runtime: runtime, cacheMode: .cold).replay(script)
            #expect(results.map(\.status) == [.answered, .answered, .answered])
            for result in results {
                let metrics = try #require(result.metrics)
                #expect(metrics.reusedTokens == 0)
                #expect(metrics.evaluatedTokens == metrics.promptTokens)
            }
        }

        @Test func sessionModeThroughTheReplayerReusesFromTurnTwo() async throws {
            let runtime = try RealModel.runtime()
            let script = ConversationScript(
                id: "warm", systemPrompt: "Answer briefly.", options: GenerationOptions(maxTokens: 12),
                userMessages: userTurns.prefix(3).map { TemplateText(literal: $0) })
            let results = await ConversationReplayer(runtime: runtime, cacheMode: .session).replay(script)
            let metrics = results.compactMap(\.metrics)
            try #require(metrics.count == 3)
            #expect(metrics[0].reusedTokens == 0)  // each conversation starts from an empty session
            #expect((metrics[1].reusedTokens ?? 0) >= metrics[0].promptTokens)
            #expect((metrics[2].reusedTokens ?? 0) >= metrics[1].promptTokens)
            #expect(metrics.allSatisfy { ($0.peakResidentBytes ?? 0) > 100 << 20 })  // the model is mapped in this process
        }

        @Test func theSameGreedyConversationGivesTheSameTextTwice() async throws {
            let runtime = try RealModel.runtime()
            let script = ConversationScript(
                id: "again", options: GenerationOptions(maxTokens: 24),
                userMessages: ["Write a sentence about rivers.", "Now one about mountains."].map { TemplateText(literal: $0) })
            let first = await ConversationReplayer(runtime: runtime).replay(script)
            let second = await ConversationReplayer(runtime: runtime).replay(script)
            #expect(first.compactMap(\.answer).count == 2)
            #expect(first.map(\.answer) == second.map(\.answer))
        }

        @Test func seededSamplingIsReproducibleToo() async throws {
            let runtime = try RealModel.runtime()
            let options = GenerationOptions(maxTokens: 20, temperature: 0.9, topP: 0.95, topK: 40, seed: 7)
            await runtime.resetSession()
            let first = try await respond(runtime, [.user("Tell me a story.")], options: options)
            await runtime.resetSession()
            let second = try await respond(runtime, [.user("Tell me a story.")], options: options)
            #expect(first.text == second.text)
            #expect(!first.text.isEmpty)
        }
    }
}
