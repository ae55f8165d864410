import Testing

@testable import ChatEvalCore

/// Reuse accounting: efficiency and the cost of a miss at their edges, and the cause of a miss
/// from where the cached and sent tokens diverge.
@Suite struct TurnMetricsReuseTests {
    private func metrics(prompt: Int, reused: Int?, reusable: Int?, prefill: Double? = 0.1) -> TurnMetrics {
        TurnMetrics(
            promptTokens: prompt, reusedTokens: reused, generatedTokens: 4, timeToFirstToken: 0.2, prefillTime: prefill, decodeTime: 0.1,
            totalTime: 0.3, interTokenLatencies: [0.03, 0.03, 0.04], stopReason: .endOfGeneration, reusableTokens: reusable)
    }

    @Test func efficiencyIsReusedOverReusableAndUndefinedWithNothingReusable() {
        #expect(metrics(prompt: 100, reused: 60, reusable: 80).reuseEfficiency == 0.75)
        #expect(metrics(prompt: 100, reused: 80, reusable: 80).reuseEfficiency == 1)
        #expect(metrics(prompt: 30, reused: 0, reusable: 0).reuseEfficiency == nil)  // a first turn, a cold cache
        #expect(metrics(prompt: 30, reused: nil, reusable: 20).reuseEfficiency == nil)  // reuse unknown
        #expect(metrics(prompt: 30, reused: 10, reusable: nil).reuseEfficiency == nil)  // a server: reusable unknown
        #expect(Metric.reuseEfficiency.value(of: metrics(prompt: 100, reused: 60, reusable: 80)) == 0.75)
        #expect(Metric.reuseEfficiency.polarity == .biggerIsBetter)
    }

    /// 20 missed tokens at 0.1 s for 40 evaluated: 50 ms lost; nothing missed costs nothing.
    @Test func aMissCostsItsTokensAtTheTurnsOwnPrefillRate() {
        let missed = metrics(prompt: 100, reused: 60, reusable: 80)
        #expect(missed.missedTokens == 20)
        #expect(abs((missed.missedPrefillTime ?? 0) - 0.05) < 1e-12)
        #expect(metrics(prompt: 100, reused: 80, reusable: 80).missedPrefillTime == nil)
        #expect(metrics(prompt: 100, reused: 60, reusable: 80, prefill: nil).missedPrefillTime == nil)
    }

    /// The cache held a 50-token prompt and a 20-token answer (70 tokens).
    @Test func theCauseFollowsFromWhereTheSequencesDiverge() {
        #expect(ReuseMiss.cause(position: 12, previousPrompt: 50, cached: 70, trimFailed: false) == .earlierTurnsRerendered)
        #expect(ReuseMiss.cause(position: 49, previousPrompt: 50, cached: 70, trimFailed: false) == .earlierTurnsRerendered)
        #expect(ReuseMiss.cause(position: 50, previousPrompt: 50, cached: 70, trimFailed: false) == .previousAnswerRewritten)
        #expect(ReuseMiss.cause(position: 67, previousPrompt: 50, cached: 70, trimFailed: false) == .previousAnswerRewritten)
        #expect(ReuseMiss.cause(position: 68, previousPrompt: 50, cached: 70, trimFailed: false) == .answerBoundary)
        #expect(ReuseMiss.cause(position: 60, previousPrompt: 50, cached: 70, trimFailed: true) == .cacheNotTrimmable)
    }
}
