import ChatEvalCore
import ChatEvalStore

/// One line per turn: the user message and the answer (or what went wrong).
public enum AnswerLines {
    /// The turn's user message and answer — one-line excerpts, or with `full` whole, later lines
    /// indented under the first — then its checks (wrapped to `RunReport.width`).
    public static func render(_ turn: TurnRecord, full: Bool, indent: String) -> String {
        let number = "\(indent)\(turn.index + 1)."
        let hanging = String(repeating: " ", count: indent.count + 11)
        func shown(_ text: String) -> String { full ? RunReport.indented(text, by: hanging) : Format.excerpt(text) }
        var text = "\(number) user:   \(shown(turn.user))"
        switch turn.status {
        case .answered: text += "\n\(indent)   model:  " + shown(turn.answer ?? "")
        case .failed: text += "\n\(indent)   FAILED: \(turn.failure?.description ?? "unknown failure")"
        case .skipped: text += "\n\(indent)   skipped: \(turn.skipReason ?? "")"
        }
        if let metrics = turn.metrics, let line = FirstTokenLine.render(metrics) {
            text += "\n" + Format.wrap("\(indent)   time:   \(line)", width: RunReport.width, hanging: indent + "           ")
        }
        if let line = ReuseLine.render(turn.metrics, indent: indent + "   ") { text += "\n" + line }
        for verdict in turn.checks ?? [] {
            text += "\n" + VerdictLine.render(verdict, indent: indent + "   ", width: RunReport.width)
        }
        return text
    }
}

/// A turn that re-evaluated tokens its cache held: how many, what they cost and why — "reuse
/// 120 of 300 reusable tokens (40%): 180 evaluated again, ≈ 110 ms; the template rewrites the
/// previous answer it sends back: after "…Paris." the cache held "<|im_end|>" and the prompt
/// "\n<|im_end|>"". Nil when nothing reusable was missed.
public enum ReuseLine {
    public static func render(_ metrics: TurnMetrics?, indent: String, width: Int = RunReport.width) -> String? {
        guard let metrics, let missed = metrics.missedTokens, missed > 0, let reusable = metrics.reusableTokens,
            let reused = metrics.reusedTokens, let efficiency = metrics.reuseEfficiency
        else { return nil }
        var line =
            "\(indent)reuse \(reused) of \(reusable) reusable tokens (\(Format.percent(efficiency))): \(missed) evaluated again"
            + (metrics.missedPrefillTime.map { ", ≈ \(Format.duration($0))" } ?? "")
        if let miss = metrics.reuseMiss {
            line += "; \(miss.cause.explanation)"
            if miss.cause != .serverSide, miss.cause != .coldCache {  // neither has a point of divergence to show
                line +=
                    ": at token \(miss.position), "
                    + "after \(quoted(miss.before)) the cache held \(quoted(miss.cached)) and the prompt \(quoted(miss.sent))"
            }
        }
        return Format.wrap(line, width: width, hanging: indent + "  ")
    }

    /// Text as a quoted excerpt with line breaks and control characters visible.
    static func quoted(_ text: String) -> String {
        "\"" + Format.excerpt(text.replacingOccurrences(of: "\n", with: "\\n"), limit: 32) + "\""
    }
}

/// `✓ icontains: found "Paris" …` — one line per check verdict.
public enum VerdictLine {
    /// With a `width`, the line is wrapped to it, continuing under the check's name.
    public static func render(_ verdict: Verdict, indent: String, width: Int? = nil) -> String {
        let mark = verdict.isError ? "!" : (verdict.passed ? "✓" : "✗")
        let error = verdict.error.map { " [error: \($0)]" } ?? ""
        let line = "\(indent)\(mark) \(verdict.check): \(Format.excerpt(verdict.detail, limit: 140))\(error)"
        guard let width else { return line }
        return Format.wrap(line, width: width, hanging: String(repeating: " ", count: indent.count + 2))
    }
}

/// Checks passed and gate outcomes of a suite.
public enum GateReport {
    public static func render(verdicts: [Verdict], gates: [GateOutcome], indent: String) -> String {
        var lines: [String] = []
        if !verdicts.isEmpty {
            let passed = verdicts.filter(\.passed).count
            let rate = Verdict.passRate(verdicts).map { String(format: " (weighted pass rate %.2f)", $0) } ?? ""
            lines.append("\(indent)checks: \(passed) of \(verdicts.count) passed\(rate)")
        }
        for gate in gates {
            lines.append("\(indent)gate \(gate.described): \(gate.found) — \(gate.passed ? "PASS" : "FAIL")")
        }
        return lines.joined(separator: "\n")
    }
}

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
