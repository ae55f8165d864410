import ChatEvalCore
import Testing

@testable import ChatEvalSuites

@Suite struct SLOSectionTests {
    @Test func objectivesReadDurationsInSecondsOrMillisecondsWithOptionalPercentiles() throws {
        let suite = try SuiteLoader.parse(
            """
            name: s
            slo:
              ttft_p95: 1s
              tpot: 50ms
              e2el: 12.5
            conversations:
              - {id: a, turns: [hi]}
            """, file: "t.yaml")
        let objectives = try #require(suite.slo?.objectives)
        #expect(
            objectives == [
                .init(metric: .totalTime, bound: 12.5),
                .init(metric: .timePerOutputToken, bound: 0.05),
                .init(metric: .timeToFirstToken, bound: 1, percentile: 95),
            ])
        #expect(objectives.map(\.name) == ["e2el", "tpot", "ttft_p95"])
    }

    @Test func badObjectivesAreRejectedWithTheirLine() {
        let errors = rejection(
            """
            name: s
            slo:
              ttft: 1s
              ttft_p99: 2s
              tpot: fast
              e2el_p42: 3
            conversations:
              - {id: a, turns: [hi]}
            """)
        let messages = errors.map(\.message)
        #expect(messages.contains { $0.contains("sets ttft twice") })
        #expect(messages.contains { $0.contains("slo.tpot must be a duration") })
        #expect(messages.contains { $0.contains("unknown key 'e2el_p42'") })
        #expect(errors.allSatisfy { $0.line != nil })
    }

    /// Objectives name metrics as vLLM's `--goodput` does (`e2el` is the turn's `total-time`),
    /// but bound the one `Metric` that checks, gates and comparisons read.
    @Test func objectivesBoundTheMetricsChecksRead() {
        #expect(ServiceLevelObjectives.metrics.map(\.name) == ["ttft", "tpot", "e2el"])
        #expect(ServiceLevelObjectives.name(of: .totalTime) == "e2el" && ServiceLevelObjectives.name(of: .decodeTokensPerSecond) == nil)
        #expect(ServiceLevelObjectives.Objective(metric: .totalTime, bound: 1, percentile: 95).name == "e2el_p95")
        #expect(SLOSection.keys.contains("e2el_p99") && !SLOSection.keys.contains("total-time"))
    }

    @Test func aGoodTurnMeetsEveryBound() {
        let slo = ServiceLevelObjectives([.init(metric: .timeToFirstToken, bound: 0.5), .init(metric: .timePerOutputToken, bound: 0.1)])
        func turn(ttft: Double, total: Double, generated: Int) -> TurnMetrics {
            TurnMetrics(
                promptTokens: 1, reusedTokens: nil, generatedTokens: generated, timeToFirstToken: ttft, prefillTime: nil,
                decodeTime: total - ttft, totalTime: total, interTokenLatencies: [], stopReason: .maxTokens)
        }
        #expect(slo.isGood(turn(ttft: 0.4, total: 1.3, generated: 10)))  // tpot 0.1
        #expect(!slo.isGood(turn(ttft: 0.4, total: 1.5, generated: 10)))  // tpot 0.122
        #expect(!slo.isGood(turn(ttft: 0.6, total: 0.6, generated: 1)))
        #expect(slo.isGood(turn(ttft: 0.5, total: 9, generated: 1)))  // one token: tpot 0
    }
}
