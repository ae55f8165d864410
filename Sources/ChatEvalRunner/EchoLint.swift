import ChatEvalCore
import ChatEvalSuites

/// Checks that pass when the model does not answer at all but repeats its prompt — a base model
/// continuing the system prompt, a broken template replaying the transcript. Such a check
/// measures the prompt, not the model. `chateval validate` warns about them in any suite; the
/// shipped suites are held to none (ShippedSuitesTests).
public enum EchoLint {
    /// How a model that does not answer might still produce text from its prompt.
    public enum Echo: String, CaseIterable, Sendable {
        /// The user message of the turn, repeated.
        case userMessage = "the user message"
        /// The system prompt, then the user message (a base model continuing its prompt).
        case systemAndUser = "the system prompt and the user message"
        /// The whole transcript so far: the system prompt, every user message before, the user
        /// message. An earlier answer adds nothing of its own: under this echo it repeated the
        /// transcript before it, so quoting it again would double the echo every turn (a 28-turn
        /// conversation took 12 GB); the echo grows with the transcript, linearly.
        case transcript = "the transcript so far"

        public func answer(system: String?, earlier: [ChatMessage], user: String) -> String {
            switch self {
            case .userMessage: user
            case .systemAndUser: [system, user].compactMap { $0 }.joined(separator: "\n")
            case .transcript:
                ([system].compactMap { $0 } + earlier.lazy.filter { $0.role == .user }.map(\.content) + [user]).joined(separator: "\n")
            }
        }
    }

    /// A check that passed on an echo.
    public struct Finding: Sendable, Hashable {
        public var conversation: String
        /// 1-based; nil for a conversation-level check.
        public var turn: Int?
        public var verdict: Verdict
        public var echo: Echo
        public var line: Int?
        public var column: Int?
    }

    /// Every answer check of `suite` that passes on some echo (each check once, with the first
    /// echo it passes on). Checks that read measurements cannot pass here: the echoes carry none.
    public static func findings(_ suite: Suite) -> [Finding] {
        var found: [Finding] = []
        for conversation in suite.conversations {
            var flagged = Set<[Int]>()
            for echo in Echo.allCases {
                for (turn, index, verdict) in graded(conversation, echo: echo) where verdict.passed {
                    guard flagged.insert([turn ?? 0, index]).inserted else { continue }
                    let written = turn.map { conversation.turnChecks[$0 - 1] } ?? conversation.checks
                    let definition = index < written.count ? written[index] : nil
                    found.append(
                        Finding(
                            conversation: conversation.baseID, turn: turn, verdict: verdict, echo: echo, line: definition?.line,
                            column: definition?.column))
                }
            }
        }
        return found
    }

    /// The warnings `validate` prints for `findings(suite)`.
    public static func warnings(_ suite: Suite) -> [SuiteError] {
        var seen = Set<String>()
        // A conversation under several variants is one conversation as written: warned about once.
        return findings(suite).filter { seen.insert("\($0.conversation) \($0.turn ?? 0) \($0.line ?? 0) \($0.column ?? 0)").inserted }.map {
            finding in
            var warning = SuiteError(
                .suspicious, file: suite.path, line: finding.line, column: finding.column,
                "check '\(finding.verdict.check)' of \(finding.conversation)"
                    + (finding.turn.map { " turn \($0)" } ?? "") + " passes when the model only repeats \(finding.echo.rawValue)",
                hint: "make it specific to a real answer (a fact the prompt does not contain, a shape an echo lacks)")
            warning.severity = .warning
            return warning
        }
    }

    /// The verdicts of `conversation` graded as if every answer were `echo`: (1-based turn or nil
    /// for the conversation's own checks, the check's index, the verdict).
    public static func graded(_ conversation: SuiteConversation, echo: Echo) -> [(turn: Int?, index: Int, verdict: Verdict)] {
        let script = conversation.script
        var variables = ConversationVariables(variables: script.variables)
        var history: [ChatMessage] = []
        var turns: [ReplayedTurn] = []
        for (index, template) in script.userMessages.enumerated() {
            guard let user = try? template.render({ variables.value(of: $0) }) else { break }
            let answer = echo.answer(system: script.systemPrompt, earlier: history, user: user)
            let turn = ReplayedTurn(index: index, user: user, messagesSent: history.count + 2, status: .answered, answer: answer)
            history += [.user(user), .assistant(answer)]
            variables.record(turn)
            turns.append(turn)
        }
        guard turns.count == script.userMessages.count else { return [] }
        let (records, checks) = ConversationGrader.grade(conversation, turns: turns)
        return records.flatMap { turn in (turn.checks ?? []).enumerated().map { (turn.index + 1, $0.offset, $0.element) } }
            + checks.enumerated().map { (nil, $0.offset, $0.element) }
    }
}
