import ChatEvalCore
import ChatEvalStore

/// What went wrong in a run, one row each, as the Markdown and HTML reports list it (the terminal
/// report's failed checks and runtime failures, in table form): every turn the runtime could not
/// answer without a check expecting it, then every check that failed — on a turn or on the whole
/// conversation — once over its repetitions, with its reason, the user message and the answer.
struct FailureRow {
    /// The model's label, when several ran side by side.
    var model: String?
    var suite: String
    var conversation: String
    /// "2", or "conversation" for a conversation-level check.
    var turn: String
    /// The check's type, or "runtime: CODE" for a turn the runtime could not answer.
    var check: String
    /// Why: the verdict's detail (with how many repetitions failed), or the runtime's message.
    var reason: String
    /// Empty for a conversation-level check.
    var user: String
    /// The answer, or what stood in for it; empty for a conversation-level check.
    var answer: String
    /// A check that passed, but only because the answer repeats the prompt (`Verdict.echo`).
    var echoed = false

    static func rows(_ records: [RunRecord]) -> [FailureRow] {
        let sideBySide = records.count > 1
        let summary = RunSummary(records, labels: records.map { sideBySide ? $0.modelLabel : nil })
        let runtime = summary.runtimeFailures.map { failure in
            FailureRow(
                model: failure.label, suite: failure.suite, conversation: failure.conversation, turn: String(failure.turn.index &+ 1),
                check: "runtime: \(failure.turn.failure?.code.rawValue ?? "failed")",
                reason: (failure.turn.failure?.message ?? "the turn failed")
                    + (failure.repetition > 1 ? " (repetition \(failure.repetition))" : ""),
                user: failure.turn.user, answer: "")
        }
        let checks = summary.failedChecks.map { failed in
            let times = failed.repetitions > 1 ? " (failed in \(failed.failedIn) of \(failed.repetitions) repetitions)" : ""
            let reason = (failed.verdict.error.map { "could not be evaluated: \($0)" } ?? failed.verdict.detail) + times
            return FailureRow(
                model: failed.label, suite: failed.suite, conversation: failed.conversation,
                turn: failed.turn.map { String($0.index &+ 1) } ?? "conversation", check: failed.verdict.check, reason: reason,
                user: failed.turn?.user ?? "", answer: failed.turn.map(answer) ?? "")
        }
        // Passes that prove nothing: the answer repeated the prompt, and without the repeat the check fails.
        let echoed = summary.echoedChecks.map { passed in
            let times = passed.repetitions > 1 ? " (in \(passed.failedIn) of \(passed.repetitions) repetitions)" : ""
            return FailureRow(
                model: passed.label, suite: passed.suite, conversation: passed.conversation,
                turn: passed.turn.map { String($0.index &+ 1) } ?? "conversation",
                check: "\(passed.verdict.check) (passed on an echo)",
                reason: "passed only because the answer repeats \(passed.verdict.echo ?? "the prompt")\(times): \(passed.verdict.detail)",
                user: passed.turn?.user ?? "", answer: passed.turn.map(answer) ?? "", echoed: true)
        }
        return runtime + checks + echoed
    }

    /// The answer a check graded, or why there is none.
    private static func answer(_ turn: TurnRecord) -> String {
        switch turn.status {
        case .answered: turn.answer ?? ""
        case .failed: "(failed: \(turn.failure?.description ?? ""))"
        case .skipped: "(skipped: \(turn.skipReason ?? ""))"
        }
    }
}
