import ChatEvalCore
import ChatEvalRuntime
import ChatEvalTestKit
import Testing

@Suite struct ConversationReplayerTests {
    private func script(_ messages: [String], system: String? = "Be brief.", maxMessages: Int? = nil) throws -> ConversationScript {
        ConversationScript(
            id: "c", systemPrompt: system, maxMessages: maxMessages, variables: ["city": "Lyon"],
            userMessages: try messages.map { try TemplateText($0) })
    }

    @Test func sessionModeSendsTheGrowingHistoryAndResetsOnlyAtTheStart() async throws {
        let runtime = ScriptedRuntime(replies: [
            .answer(["Hel", "lo"], ScriptedRuntime.metrics(prompt: 10)),
            .answer(["Fine"], ScriptedRuntime.metrics(prompt: 20, reused: 14)),
        ])
        let results = await ConversationReplayer(runtime: runtime).replay(try script(["Hi", "How are you?"]))

        #expect(results.map(\.status) == [.answered, .answered])
        #expect(results.map(\.answer) == ["Hello", "Fine"])
        #expect(results[1].metrics?.reusedTokens == 14)
        let events = await runtime.events
        #expect(
            events == [
                .resetSession,
                .respond(messages: [.system("Be brief."), .user("Hi")], options: GenerationOptions()),
                .respond(
                    messages: [.system("Be brief."), .user("Hi"), .assistant("Hello"), .user("How are you?")],
                    options: GenerationOptions()),
            ])
    }

    @Test func coldModeResetsBeforeEveryTurn() async throws {
        let runtime = ScriptedRuntime(replies: [
            .answer(["a"], ScriptedRuntime.metrics(prompt: 10)),
            .answer(["b"], ScriptedRuntime.metrics(prompt: 20)),
            .answer(["c"], ScriptedRuntime.metrics(prompt: 30)),
        ])
        _ = await ConversationReplayer(runtime: runtime, cacheMode: .cold).replay(try script(["1", "2", "3"]))
        let resets = await runtime.events.filter { $0 == .resetSession }.count
        #expect(resets == 4)  // one for the conversation, one before each of the three turns
    }

    @Test func aFailedTurnIsRecordedAndTheRestAreSkipped() async throws {
        let overflow = RuntimeFailure(.contextOverflow, "the prompt has 5000 tokens and the context holds 4096")
        let runtime = ScriptedRuntime(replies: [.answer(["ok"], ScriptedRuntime.metrics(prompt: 10)), .failure(overflow)])
        let recorder = TurnRecorder()
        let results = await ConversationReplayer(runtime: runtime).replay(try script(["1", "2", "3"])) { await recorder.record($0) }

        #expect(results.map(\.status) == [.answered, .failed, .skipped])
        #expect(results[1].failure == overflow)
        #expect(results[2].skipReason == "turn 2 failed (context_overflow)")
        #expect(await recorder.indices == [0, 1, 2])  // every turn reported as soon as it ended
        #expect(await runtime.events.count == 3)  // reset + two turns; the third never reached the runtime
    }

    @Test func placeholdersQuoteEarlierAnswersAndVariables() async throws {
        let runtime = ScriptedRuntime(replies: [
            .answer(["Paris"], ScriptedRuntime.metrics(prompt: 10)),
            .answer(["yes"], ScriptedRuntime.metrics(prompt: 20)),
        ])
        let results = await ConversationReplayer(runtime: runtime)
            .replay(try script(["Capital?", "You said {{turn1.answer}}; I live in {{vars.city}}."], system: nil))
        #expect(results[1].user == "You said Paris; I live in Lyon.")
    }

    @Test func theHistoryWindowLimitsWhatIsSent() async throws {
        let runtime = ScriptedRuntime(replies: (1...3).map { .answer(["a\($0)"], ScriptedRuntime.metrics(prompt: $0 * 10)) })
        let results = await ConversationReplayer(runtime: runtime).replay(try script(["u1", "u2", "u3"], maxMessages: 3))
        #expect(results.map(\.messagesSent) == [2, 4, 4])  // system + at most 3 messages
        guard case .respond(let messages, _) = await runtime.events.last else {
            Issue.record("the last event is not a turn")
            return
        }
        #expect(messages == [.system("Be brief."), .user("u2"), .assistant("a2"), .user("u3")])
    }

    @Test func aTurnWithoutMeasurementsIsAFailure() async throws {
        let runtime = ScriptedRuntime(replies: [])
        let results = await ConversationReplayer(runtime: runtime).replay(try script(["1"]))
        #expect(results.first?.status == .failed)
        #expect(results.first?.failure?.code == .invalidResponse)
    }
}

private actor TurnRecorder {
    private(set) var indices: [Int] = []
    func record(_ turn: ReplayedTurn) { indices.append(turn.index) }
}
