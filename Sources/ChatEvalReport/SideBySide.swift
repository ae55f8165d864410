import ChatEvalCore
import ChatEvalStore

/// Several models' answers to the same turns, one line per model under each turn — the way
/// promptfoo's matrix shows providers against tests: the checks' marks, the time to the first
/// token, the decode speed and the answer. Shows the first measured repetition of each model.
enum SideBySide {
    static func render(_ records: [RunRecord], labels: [String], options: RunReportOptions) -> String {
        let width = min(labels.map(\.count).max() ?? 0, 28)
        var lines = ["side by side (repetition 1 of each model)"]
        guard let first = records.first else { return lines[0] }
        // Each model's first measured repetition-1 replay by suite and id, found once: searched
        // for every conversation, 4,000 conversations cost 10^7 compares a model.
        let firstReplays = records.map { record in
            var found: [String: [String: ConversationRecord]] = [:]
            for suite in record.suites where found[suite.name] == nil {
                var byId: [String: ConversationRecord] = [:]
                for replay in suite.conversations where replay.isMeasured && replay.repetition == 1 && byId[replay.id] == nil {
                    byId[replay.id] = replay
                }
                found[suite.name] = byId
            }
            return found
        }
        for suite in first.suites {
            for conversation in suite.conversations where conversation.isMeasured && conversation.repetition == 1 {
                lines.append(Format.clip("  \(suite.name)/\(conversation.id)", RunReport.width))
                let replays = firstReplays.map { $0[suite.name]?[conversation.id] }
                for turn in conversation.turns {
                    lines.append("    turn \(turn.index + 1)  " + RunReport.text(turn.user, options, indent: "            "))
                    for (replay, label) in zip(replays, labels) {
                        // A label longer than the column wraps onto lines of its own, never cut.
                        let wrapped = Format.wrapName(label, width: width).split(separator: "\n").map(String.init)
                        lines += wrapped.dropLast().map { "      " + $0 }
                        let name = (wrapped.last ?? "").padding(toLength: width, withPad: " ", startingAt: 0)
                        guard let answered = replay?.turns.first(where: { $0.index == turn.index }) else {
                            lines.append("      \(name)  (not run)")
                            continue
                        }
                        let marks = (answered.checks ?? []).map { $0.passed ? "✓" : "✗" }.joined()
                        let figures =
                            "\(Format.duration(answered.metrics?.timeToFirstToken)) "
                            + "\(Format.rate(answered.metrics?.decodeTokensPerSecond)) t/s"
                        let prefix = "      \(name)  \(marks.isEmpty ? "·" : marks)  \(figures)  "
                        let body: String
                        switch answered.status {
                        case .answered:
                            body = RunReport.text(answered.answer ?? "", options, indent: String(repeating: " ", count: prefix.count))
                        case .failed: body = "FAILED \(answered.failure?.description ?? "")"
                        case .skipped: body = "skipped: \(answered.skipReason ?? "")"
                        }
                        let room = max(RunReport.width - prefix.count, 20)
                        lines.append(prefix + (options.showAnswers ? body : Format.excerpt(body, limit: room)))
                    }
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
