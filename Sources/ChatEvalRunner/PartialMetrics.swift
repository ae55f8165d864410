import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Measurements as an answers file gives them: any subset of the result files' fields.
struct PartialMetrics {
    var promptTokens: Int?
    var reusedTokens: Int?
    var generatedTokens: Int?
    var timeToFirstToken: Double?
    var prefillTime: Double?
    var decodeTime: Double?
    var totalTime: Double?
    var interTokenLatencies: [Double]?
    var peakResidentBytes: Int?
    var stopReason: StopReason?

    var isEmpty: Bool {
        promptTokens == nil && reusedTokens == nil && generatedTokens == nil && timeToFirstToken == nil && prefillTime == nil
            && decodeTime == nil && totalTime == nil && interTokenLatencies == nil && peakResidentBytes == nil && stopReason == nil
    }

    /// All of a turn's measurements, when every field a replayed turn always has is given.
    var complete: TurnMetrics? {
        guard let promptTokens, let generatedTokens, let timeToFirstToken, let decodeTime, let totalTime,
            let interTokenLatencies, let stopReason
        else { return nil }
        return TurnMetrics(
            promptTokens: promptTokens, reusedTokens: reusedTokens, generatedTokens: generatedTokens,
            timeToFirstToken: timeToFirstToken, prefillTime: prefillTime, decodeTime: decodeTime, totalTime: totalTime,
            interTokenLatencies: interTokenLatencies, stopReason: stopReason, peakResidentBytes: peakResidentBytes)
    }

    /// The metrics these fields define, computed as for a replayed turn (`TurnMetrics`' rules);
    /// the others are "not given".
    var readings: MetricReadings {
        if let complete { return MetricReadings(complete) }
        var values: [Metric: Double] = [:]
        values[.timeToFirstToken] = timeToFirstToken
        values[.totalTime] = totalTime
        values[.generatedTokens] = generatedTokens.map(Double.init)
        values[.peakMemory] = peakResidentBytes.map(Double.init)
        values[.reuseRatio] = promptTokens.flatMap { TurnMetrics.reuseRatio(reused: reusedTokens, prompt: $0) }
        values[.prefillTokensPerSecond] = promptTokens.flatMap { prompt in
            TurnMetrics.prefillRate(evaluated: reusedTokens.map { prompt - $0 }, prefillTime: prefillTime)
        }
        values[.decodeTokensPerSecond] = generatedTokens.flatMap { TurnMetrics.decodeRate(generated: $0, decodeTime: decodeTime ?? 0) }
        let latencies = interTokenLatencies.flatMap(Distribution.init)
        values[.interTokenLatencyP50] = latencies?.p50
        values[.interTokenLatencyP95] = latencies?.p95
        let reasons = Dictionary(
            uniqueKeysWithValues: Metric.allCases.filter { values[$0] == nil }.map { ($0, "not given in the answers file") })
        return MetricReadings(values: values, stopReason: stopReason, reasons: reasons)
    }
}
