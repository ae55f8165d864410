import ChatEvalCore
import ChatEvalStore

/// The per-turn table of a replayed conversation: token accounting, latency, rates, memory.
public enum TurnTable {
    public static func render(_ turns: [TurnRecord], indent: String = "  ") -> String {
        var table = TextTable([
            .init("turn"), .init("prompt"), .init("reused"), .init("new"), .init("gen"), .init("TTFT"),
            .init("prefill t/s"), .init("decode t/s"), .init("ITL p50"), .init("ITL p95"), .init("ITL max"),
            .init("total"), .init("stop", .left), .init("peak RSS"),
        ])
        for turn in turns {
            let number = String(turn.index + 1)
            switch turn.status {
            case .answered:
                guard let metrics = turn.metrics else { continue }
                let itl = metrics.interTokenLatency
                table.add([
                    number, String(metrics.promptTokens), metrics.reusedTokens.map(String.init) ?? "?", metrics.evaluatedTokens.map(String.init) ?? "?",
                    String(metrics.generatedTokens), Format.duration(metrics.timeToFirstToken),
                    Format.rate(metrics.prefillTokensPerSecond), Format.rate(metrics.decodeTokensPerSecond),
                    Format.duration(itl?.p50), Format.duration(itl?.p95), Format.duration(itl?.max),
                    Format.duration(metrics.totalTime), metrics.stopReason.rawValue, Format.bytes(metrics.peakResidentBytes),
                ])
            case .failed:
                table.add([number, "", "", "", "", "", "", "", "", "", "", "", "FAILED \(turn.failure?.code.rawValue ?? "")"])
            case .skipped:
                table.add([number, "", "", "", "", "", "", "", "", "", "", "", "skipped"])
            }
        }
        return table.render(indent: indent)
    }
}
