import ChatEvalCore
import ChatEvalStore

/// "TTFT 62 ms = template 0.3 ms + tokenize 0.2 ms + prefill 58 ms (12 ms re-evaluating lost
/// cache) + first token 3.1 ms" — where a turn's time to the first token went.
public enum FirstTokenLine {
    /// The parts of a turn in process, or what a server's timings tell of a served one; nil when
    /// neither is known.
    public static func render(_ metrics: TurnMetrics) -> String? {
        if let parts = metrics.firstTokenParts { return render(parts, ttft: metrics.timeToFirstToken) }
        guard let split = metrics.servedFirstTokenSplit else { return nil }
        let reevaluated = split.reevaluated > 0 ? " (\(Format.duration(split.reevaluated)) re-evaluating tokens the cache lost)" : nil
        return "TTFT \(Format.duration(metrics.timeToFirstToken)) = server prefill \(Format.duration(split.serverPrefill))"
            + (reevaluated ?? "")
            + " + \(Format.duration(split.notBrokenDown)) the server does not break down (request, queue, template, first token, network)"
    }

    public static func render(_ parts: FirstTokenParts, ttft: Double) -> String {
        var pieces = [
            "template \(Format.duration(parts.template))", "tokenize \(Format.duration(parts.tokenize))",
            "prefill \(Format.duration(parts.prefill))"
                + (parts.reevaluated > 0 ? " (\(Format.duration(parts.reevaluated)) re-evaluating tokens the cache lost)" : ""),
            "first token \(Format.duration(parts.firstSample))",
        ]
        if parts.other >= 0.0005 { pieces.append("other \(Format.duration(parts.other))") }
        return "TTFT \(Format.duration(ttft)) = " + pieces.joined(separator: " + ")
    }
}
