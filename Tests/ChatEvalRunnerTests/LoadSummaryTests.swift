import ChatEvalCore
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Testing

@Suite struct LoadSummaryTests {
    static func turn(_ index: Int, ttft: Double, total: Double, generated: Int) -> TurnRecord {
        let metrics = TurnMetrics(
            promptTokens: 10, reusedTokens: nil, generatedTokens: generated, timeToFirstToken: ttft, prefillTime: nil,
            decodeTime: total - ttft, totalTime: total, interTokenLatencies: [0.01, 0.03], stopReason: .maxTokens)
        return TurnRecord(ReplayedTurn(index: index, user: "u", messagesSent: 1, status: .answered, answer: "a", metrics: metrics))
    }

    @Test func goodputCountsAnsweredTurnsWithinEveryObjectivePerSecond() {
        let turns = [
            Self.turn(0, ttft: 0.2, total: 1.0, generated: 5),  // tpot 0.2: good
            Self.turn(1, ttft: 0.4, total: 2.4, generated: 5),  // tpot 0.5: too slow per token
            Self.turn(2, ttft: 1.5, total: 1.6, generated: 2),  // ttft too slow
            Self.turn(3, ttft: 0.1, total: 0.1, generated: 1),  // one token: tpot 0, good
            TurnRecord(ReplayedTurn(index: 4, user: "u", messagesSent: 1, status: .failed, failure: RuntimeFailure(.timeout, "slow"))),
            TurnRecord(ReplayedTurn(index: 5, user: "u", messagesSent: 0, status: .skipped, skipReason: "earlier failure")),
        ]
        let suite = SuiteRecord(
            name: "s", path: "s.yaml",
            conversations: [
                ConversationRecord(id: "c", repetition: 1, warmup: false, systemPrompt: nil, options: GenerationOptions(), turns: turns),
                ConversationRecord(
                    id: "w", repetition: 0, warmup: true, systemPrompt: nil, options: GenerationOptions(),
                    turns: [Self.turn(0, ttft: 9, total: 9, generated: 1)]),
            ])
        let slo = ServiceLevelObjectives([
            .init(metric: .timeToFirstToken, bound: 1, percentile: 95), .init(metric: .timePerOutputToken, bound: 0.3),
        ])
        let summary = LoadSummary.summarize([suite], objectives: ["s": slo], concurrency: 4, duration: 2)

        #expect(summary.requests == 5)  // skipped turns were never sent; warm-ups not counted
        #expect(summary.failedRequests == 1)
        #expect(summary.errorRate == 0.2)
        #expect(summary.requestsPerSecond == 2)  // 4 answered in 2 s
        #expect(summary.outputTokensPerSecond == 6.5)  // 13 tokens in 2 s
        #expect(summary.goodRequests == 2)
        #expect(summary.goodput == 1)
        #expect(summary.timeToFirstToken?.count == 4)
        #expect(summary.interTokenLatency?.count == 8)
        let ttft = summary.objectives.first
        #expect(ttft?.objective == "ttft_p95")
        #expect(ttft?.met == false)  // p95 of [0.1, 0.2, 0.4, 1.5] is 1.335 s
        #expect(abs((ttft?.measured ?? 0) - 1.335) < 1e-9)
        #expect(LoadSummary.summarize([suite], objectives: [:], concurrency: 1, duration: 2).goodput == nil)
    }

    @Test func aLoadRunRefusesTheInProcessRuntimeAboveOneConversation() throws {
        let plan = RunPlan(suites: [], settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        #expect(throws: LoadError.self) { try LoadRunner(plan: plan, runtimes: [InProcess(), InProcess()]) }
        let shared = ScriptedRuntime(replies: [])
        #expect(throws: LoadError.self) { try LoadRunner(plan: plan, runtimes: [shared, shared]) }
        #expect(throws: Never.self) { try LoadRunner(plan: plan, runtimes: [InProcess()]) }
    }
}

/// A runtime that claims to run in this process and never answers.
private final class InProcess: ChatRuntime {
    let identity = ScriptedRuntime(replies: []).identity
    var runsInProcess: Bool { true }
    func respond(to messages: [ChatMessage], options: GenerationOptions) -> AsyncThrowingStream<ChatEvent, any Error> {
        AsyncThrowingStream { $0.finish(throwing: RuntimeFailure(.unavailable, "never answers")) }
    }
    func resetSession() async {}
}
