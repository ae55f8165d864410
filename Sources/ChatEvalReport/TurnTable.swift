import ChatEvalCore
import ChatEvalStore

/// One row per answered turn: token counts, timings and rates, memory; failed and skipped turns
/// are named below the table (so that their text does not widen a column). Fits 100 columns.
public enum TurnTable {
    public static func render(_ turns: [TurnRecord], indent: String = "  ") -> String {
        var table = TextTable([
            .init("turn"), .init("prompt"), .init("reused"), .init("gen"), .init("TTFT"), .init("prefill"), .init("decode"),
            .init("ITL p50/p95"), .init("total"), .init("stop", .left), .init("peak RSS"),
        ])
        var notes: [String] = []
        for turn in turns {
            let number = String(turn.index + 1)
            switch turn.status {
            case .answered:
                guard let metrics = turn.metrics else { continue }
                let itl = metrics.interTokenLatency
                table.add([
                    number, String(metrics.promptTokens), metrics.reusedTokens.map(String.init) ?? "?", String(metrics.generatedTokens),
                    Format.duration(metrics.timeToFirstToken), Format.rate(metrics.prefillTokensPerSecond),
                    Format.rate(metrics.decodeTokensPerSecond),
                    Format.durationPair(itl?.p50, itl?.p95), Format.duration(metrics.totalTime), metrics.stopReason.rawValue,
                    Format.bytes(metrics.peakResidentBytes),
                ])
            case .failed:
                notes.append("\(indent)turn \(number) FAILED: \(turn.failure?.description ?? "unknown failure")")
            case .skipped:
                notes.append("\(indent)turn \(number) skipped: \(turn.skipReason ?? "")")
            }
        }
        let legend = "\(indent)(prefill and decode in tokens/s; reused: prompt tokens served from the KV cache)"
        return ([table.render(indent: indent)] + notes + [legend]).joined(separator: "\n")
    }
}
