import ChatEvalCore
import ChatEvalStore

/// The readable summary of a finished (or interrupted) run.
public enum RunReport {
    public static func render(_ record: RunRecord, showAnswers: Bool) -> String {
        var lines: [String] = []
        for suite in record.suites {
            let measured = suite.conversations.filter { !$0.warmup }
            lines.append("\nsuite \(suite.name) — \(suite.path)")
            // Per-turn tables for the first measured repetition; the summary covers all of them.
            for conversation in measured where conversation.repetition == 1 {
                lines.append("\n  \(conversation.id)")
                lines.append(TurnTable.render(conversation.turns, indent: "    "))
                lines += conversation.turns.map { AnswerLines.render($0, full: showAnswers, indent: "    ") }
                lines += conversation.checks.map { VerdictLine.render($0, indent: "    conversation ") }
            }
            let turns = measured.flatMap(\.turns)
            let answered = turns.filter { $0.status == .answered }.count
            let failed = turns.filter { $0.status == .failed }.count
            let skipped = turns.filter { $0.status == .skipped }.count
            lines.append("\n  \(measured.count) conversation replays, \(answered) turns answered, \(failed) failed, \(skipped) skipped")
            lines.append(SuiteSummary.render(suite.measuredTurns, indent: "  "))
            let gates = GateReport.render(verdicts: suite.measuredVerdicts, gates: suite.gates, indent: "  ")
            if !gates.isEmpty { lines.append("\n" + gates) }
        }
        if let passed = record.gatesPassed { lines.append("\n" + (passed ? "All gates passed." : "A GATE FAILED.")) }
        if record.status == .incomplete { lines.append("\nINCOMPLETE: the run was interrupted; the results above are what was measured.") }
        return lines.joined(separator: "\n")
    }
}
