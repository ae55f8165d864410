import ChatEvalCore
import Testing

@Suite struct DistributionTests {
    @Test func percentilesInterpolateBetweenRanks() throws {
        let distribution = try #require(Distribution([4, 1, 3, 2]))
        #expect(distribution.count == 4)
        #expect(distribution.min == 1)
        #expect(distribution.max == 4)
        #expect(distribution.mean == 2.5)
        #expect(distribution.p50 == 2.5)
        #expect(abs(distribution.p95 - 3.85) < 1e-9)
    }

    @Test func singleValueIsEveryPercentile() throws {
        let distribution = try #require(Distribution([7]))
        #expect(distribution.p50 == 7 && distribution.p99 == 7 && distribution.min == 7)
    }

    @Test func emptyOrNonFiniteSampleHasNoDistribution() {
        #expect(Distribution([Double]()) == nil)
        #expect(Distribution([.nan, .infinity]) == nil)
        #expect(Distribution([1, .nan, 3])?.count == 2)
    }
}

@Suite struct TurnMetricsTests {
    private func metrics(prompt: Int = 100, reused: Int = 60, generated: Int = 11, prefill: Double = 0.2, decode: Double = 0.5)
        -> TurnMetrics
    {
        TurnMetrics(
            promptTokens: prompt, reusedTokens: reused, generatedTokens: generated, timeToFirstToken: 0.25,
            prefillTime: prefill, decodeTime: decode, totalTime: 0.75, interTokenLatencies: [0.04, 0.06], stopReason: .maxTokens)
    }

    @Test func ratesComeFromCountsAndTimes() {
        let turn = metrics()
        #expect(turn.evaluatedTokens == 40)
        #expect(turn.prefillTokensPerSecond == 200)
        #expect(turn.decodeTokensPerSecond == 20)  // tokens after the first over the time after the first
        #expect(turn.reuseRatio == 0.6)
    }

    @Test func ratesAreUndefinedWithoutWork() {
        #expect(metrics(generated: 1).decodeTokensPerSecond == nil)
        #expect(metrics(prompt: 10, reused: 10).prefillTokensPerSecond == nil)
        #expect(metrics(prompt: 0, reused: 0).reuseRatio == nil)
    }

    @Test func reuseARuntimeDoesNotReportIsUnknownNotZero() {
        var turn = metrics(prompt: 100, reused: 40)
        turn.reusedTokens = nil
        #expect(turn.reuseRatio == nil)
        #expect(turn.evaluatedTokens == nil)
        #expect(turn.prefillTokensPerSecond == nil)
        #expect(Metric.reuseRatio.value(of: turn) == nil)
    }

    /// Every metric's polarity, written out: a metric added without its direction, or one flipped,
    /// fails here (before, 2 of 11 were checked).
    @Test func everyMetricHasAPolarity() {
        let bigger: Set<Metric> = [.prefillTokensPerSecond, .decodeTokensPerSecond, .reuseRatio, .reuseEfficiency]
        let smaller: Set<Metric> = [
            .timeToFirstToken, .interTokenLatencyP50, .interTokenLatencyP95, .totalTime, .timePerOutputToken, .peakMemory,
            .generatedTokens,
        ]
        #expect(bigger.union(smaller) == Set(Metric.allCases) && bigger.isDisjoint(with: smaller))
        for metric in Metric.allCases {
            #expect(metric.polarity == (bigger.contains(metric) ? .biggerIsBetter : .smallerIsBetter), "\(metric.name)")
        }
        #expect(Metric.reuseRatio.value(of: metrics()) == 0.6)
        #expect(Metric.peakMemory.value(of: metrics()) == nil)
    }
}
