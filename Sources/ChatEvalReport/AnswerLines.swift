import ChatEvalCore
import ChatEvalStore

/// One line per turn: the user message and the answer (or what went wrong).
public enum AnswerLines {
    /// The turn's user message and answer — one-line excerpts, or with `full` whole, later lines
    /// indented under the first — then its failed checks, and its passing ones too with
    /// `passingChecks` (`--verbose`'s), each wrapped to `RunReport.width`.
    public static func render(_ turn: TurnRecord, full: Bool, indent: String, passingChecks: Bool = true) -> String {
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
        for verdict in turn.checks ?? [] where passingChecks || !verdict.passed {
            text += "\n" + VerdictLine.render(verdict, indent: indent + "   ", width: RunReport.width)
        }
        return text
    }
}
