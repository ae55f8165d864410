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
        #expect(ReuseMiss.cause(position: 55, previousPrompt: 50, cached: 70, trimFailed: false, sameText: true) == .answerRetokenized)
        #expect(ReuseMiss.cause(position: 68, previousPrompt: 50, cached: 70, trimFailed: false, sameText: true) == .answerBoundary)
        #expect(ReuseMiss.cause(position: 68, previousPrompt: 50, cached: 70, trimFailed: false) == .answerBoundary)
        #expect(ReuseMiss.cause(position: 60, previousPrompt: 50, cached: 70, trimFailed: true) == .cacheNotTrimmable)
    }
}

/// The parts of the time to the first token, from the moments a turn measured.
@Suite struct FirstTokenPartsTests {
    @Test func thePartsAddUpToTheFirstToken() {
        let parts = FirstTokenParts(
            templateEnd: 0.001, tokenizeEnd: 0.003, prefillStart: 0.004, prefillEnd: 0.054, firstToken: 0.056, missedShare: 0.2)
        #expect(abs(parts.template - 0.001) < 1e-12 && abs(parts.tokenize - 0.002) < 1e-12 && abs(parts.other - 0.001) < 1e-12)
        #expect(abs(parts.prefill - 0.05) < 1e-12 && abs(parts.reevaluated - 0.01) < 1e-12 && abs(parts.firstSample - 0.002) < 1e-12)
        #expect(abs(parts.total - 0.056) < 1e-12)
    }

    /// Edges: nothing missed, everything missed, a share out of range, moments out of order.
    @Test func sharesAreBoundedAndNoPartIsNegative() {
        let none = FirstTokenParts(templateEnd: 0, tokenizeEnd: 0, prefillStart: 0, prefillEnd: 0.1, firstToken: 0.1, missedShare: 0)
        #expect(none.reevaluated == 0 && none.template == 0 && none.firstSample == 0)
        let all = FirstTokenParts(templateEnd: 0, tokenizeEnd: 0, prefillStart: 0, prefillEnd: 0.1, firstToken: 0.1, missedShare: 3)
        #expect(all.reevaluated == all.prefill)
        let disordered = FirstTokenParts(
            templateEnd: 0.2, tokenizeEnd: 0.1, prefillStart: 0.05, prefillEnd: 0.01, firstToken: 0, missedShare: -1)
        #expect(
            [
                disordered.template, disordered.tokenize, disordered.prefill, disordered.reevaluated, disordered.firstSample,
                disordered.other,
            ].allSatisfy {
                $0 >= 0
            })
    }
}
