import ChatEvalCore
import ChatEvalStore

/// One line per turn: the user message and the answer (or what went wrong).
public enum AnswerLines {
    public static func render(_ turn: TurnRecord, full: Bool, indent: String) -> String {
        let number = "\(indent)\(turn.index + 1)."
        let user = "\(number) user:   \(Format.excerpt(turn.user))"
        var text: String
        switch turn.status {
        case .answered:
            let answer = turn.answer ?? ""
            text = user + "\n\(indent)   model:  " + (full ? answer : Format.excerpt(answer))
        case .failed:
            text = user + "\n\(indent)   FAILED: \(turn.failure?.description ?? "unknown failure")"
        case .skipped:
            text = user + "\n\(indent)   skipped: \(turn.skipReason ?? "")"
        }
        for verdict in turn.checks ?? [] {
            text += "\n" + VerdictLine.render(verdict, indent: indent + "   ")
        }
        return text
    }
}

/// `✓ icontains: found "Paris" …` — one line per check verdict.
public enum VerdictLine {
    public static func render(_ verdict: Verdict, indent: String) -> String {
        let mark = verdict.isError ? "!" : (verdict.passed ? "✓" : "✗")
        let error = verdict.error.map { " [error: \($0)]" } ?? ""
        return "\(indent)\(mark) \(verdict.check): \(Format.excerpt(verdict.detail, limit: 140))\(error)"
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
            lines.append("\(indent)gate \(gate.gate) \(gate.expected): \(gate.found) — \(gate.passed ? "PASS" : "FAIL")")
        }
        return lines.joined(separator: "\n")
    }
}
