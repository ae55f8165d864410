import ChatEvalCore
import ChatEvalGrading
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Grades a replayed conversation against its suite definition.
///
/// Each turn's checks see its answer (or failure), its metrics and the metrics of the turns so
/// far; placeholders are filled from the conversation as it ran. A turn that was not run fails all
/// its checks (saying why). Conversation-level checks are graded with the last turn.
public enum ConversationGrader {
    /// `readings` stands in for turns' measurements where they are partial (an answers file
    /// that gives only some metrics); by default each turn's `metrics` are read.
    public static func grade(
        _ conversation: SuiteConversation, turns: [ReplayedTurn],
        readings: [MetricReadings?]? = nil
    ) -> (turns: [TurnRecord], checks: [Verdict]) {
        var graded = turns.map { TurnRecord($0) }
        let scored = conversation.tags.contains(Verdict.instructionFollowingTag)
        var variables = ConversationVariables(variables: conversation.script.variables)
        var metricsSoFar: [MetricReadings] = []
        var turnReadings: [MetricReadings?] = []
        for index in graded.indices {
            let turn = turns[index]
            let reading = readings.flatMap { index < $0.count ? $0[index] : nil } ?? turn.metrics.map(MetricReadings.init)
            turnReadings.append(reading)
            metricsSoFar += reading.map { [$0] } ?? []
            variables.record(turn)
            let definitions = index < conversation.turnChecks.count ? conversation.turnChecks[index] : []
            guard !definitions.isEmpty else { continue }
            var verdicts = verdicts(definitions, for: turn, readings: reading, metrics: metricsSoFar, variables: variables)
            markEchoes(
                &verdicts, definitions, turn: turn, prompt: echoable(conversation, turns: turns, upTo: index), readings: reading,
                metrics: metricsSoFar, variables: variables)
            if scored {
                verdicts = instructionFollowing(
                    verdicts, definitions, turn: index + 1, for: turn, readings: reading, metrics: metricsSoFar, variables: variables)
            }
            graded[index].checks = verdicts
            graded[index].score = Verdict.passRate(verdicts)
        }
        guard !conversation.checks.isEmpty,
            let lastIndex = turns.lastIndex(where: { $0.status != .skipped }) ?? (turns.isEmpty ? nil : turns.count - 1)
        else {
            return (graded, [])
        }
        return (
            graded,
            verdicts(
                conversation.checks, for: turns[lastIndex], readings: turnReadings[lastIndex], metrics: metricsSoFar, variables: variables)
        )
    }

    /// What the model was sent before answering turn `index`, as an echo would repeat it: the
    /// turn's user message, the system prompt and the earlier user messages, each named.
    private static func echoable(_ conversation: SuiteConversation, turns: [ReplayedTurn], upTo index: Int) -> [(String, String)] {
        [("the user message", turns[index].user)] + (conversation.script.systemPrompt.map { [("the system prompt", $0)] } ?? [])
            + turns[..<index].map { ("an earlier user message", $0.user) }
    }

    /// Marks each passing check of the answer (`Verdict.echo`) that passes only because the
    /// answer repeats what it was sent: graded again on the answer with every repeat of `prompt`
    /// taken out, it fails. A base model continuing its prompt, or a template replaying the
    /// transcript, passes `icontains` on the words of the question; the run says so in its
    /// failures and summaries, as `validate` does of the checks that could pass that way.
    private static func markEchoes(
        _ verdicts: inout [Verdict], _ definitions: [CheckDefinition], turn: ReplayedTurn, prompt: [(String, String)],
        readings: MetricReadings?, metrics: [MetricReadings], variables: ConversationVariables
    ) {
        guard turn.status == .answered, let answer = turn.answer,
            verdicts.contains(where: { $0.passed && !$0.readsMeasurements }),
            let (echoed, rest) = EchoedPrompt.remove(from: answer, prompt)
        else { return }
        var without = turn
        without.answer = rest
        let again = Self.verdicts(definitions, for: without, readings: readings, metrics: metrics, variables: variables)
        for index in verdicts.indices where index < again.count && verdicts[index].passed && !verdicts[index].readsMeasurements {
            if !again[index].passed { verdicts[index].echo = echoed }
        }
    }

    /// `verdicts` with what the multi-turn instruction-following scores read: each check's
    /// instruction text and, where the check holds a strictly read IFEval instruction, its verdict
    /// under IFEval's loose reading (graded on the same answer).
    private static func instructionFollowing(
        _ verdicts: [Verdict], _ definitions: [CheckDefinition], turn number: Int, for turn: ReplayedTurn, readings: MetricReadings?,
        metrics: [MetricReadings], variables: ConversationVariables
    ) -> [Verdict] {
        zip(verdicts, definitions).map { verdict, definition in
            var verdict = verdict
            verdict.instruction = definition.instructionText(turn: number)
            if let loose = definition.looseReading {
                verdict.loose = Self.verdicts([loose], for: turn, readings: readings, metrics: metrics, variables: variables).first?.passed
            }
            return verdict
        }
    }

    private static func verdicts(
        _ definitions: [CheckDefinition], for turn: ReplayedTurn, readings: MetricReadings?,
        metrics: [MetricReadings], variables: ConversationVariables
    ) -> [Verdict] {
        let subject: GradingSubject?
        switch turn.status {
        case .answered: subject = GradingSubject(answer: turn.answer ?? "", readings: readings, conversationReadings: metrics)
        case .failed: subject = turn.failure.map { GradingSubject.failed($0, conversationReadings: metrics) }
        case .skipped: subject = nil
        }
        let verdicts = {
            definitions.map { definition in
                guard let subject else {
                    return Verdict(
                        check: definition.type, passed: false, detail: "the turn was not run: \(turn.skipReason ?? "skipped")",
                        weight: definition.weight)
                }
                do {
                    let check = try definition.resolved { variables.value(of: $0) }
                    var verdict = check.evaluate(subject)
                    verdict.weight = check.weight
                    return verdict
                } catch {
                    return Verdict(
                        check: definition.type, passed: false, detail: "the check could not be built after filling in placeholders",
                        error: String(describing: error), weight: definition.weight)
                }
            }
        }
        return subject?.sharingOneBudget(verdicts) ?? verdicts()
    }
}

/// Repeats of the prompt in an answer.
enum EchoedPrompt {
    /// The shortest text that counts as repeated: shorter ones ("Hi", "Why?") are words an answer may share.
    static let minimumLength = 12

    /// `answer` without every repeat of each of `prompt`'s texts (name, text) at least
    /// `minimumLength` characters long, and the names of those it repeated ("the user message and
    /// the system prompt"); nil when it repeats none.
    static func remove(from answer: String, _ prompt: [(String, String)]) -> (echoed: String, rest: String)? {
        var rest = answer
        var names: [String] = []
        for (name, text) in prompt {
            let text = trimmed(text)
            // Byte-exact (`LiteralSearch`): an echo repeats the bytes it was sent.
            guard text.prefix(minimumLength).count == minimumLength, LiteralSearch.contains(rest, text) else { continue }
            rest = LiteralSearch.replacingOccurrences(in: rest, of: text, with: " ")
            if !names.contains(name) { names.append(name) }
        }
        guard !names.isEmpty else { return nil }
        return (names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!, rest)
    }

    /// `text` without leading and trailing white space; `text` itself, without Foundation's
    /// conversion, when it has none (the Unicode White_Space property is the same set as
    /// `.whitespacesAndNewlines`).
    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last, first.properties.isWhitespace || last.properties.isWhitespace else {
            return text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension SuiteRecord {
    /// The record of `suite` before any replay: its name, path, description and comparison
    /// settings, and its text when `keepingText` (a shard's record, for `chateval merge`).
    public init(of suite: Suite, keepingText: Bool = false) {
        self.init(
            name: suite.name, path: suite.path, description: suite.description, comparison: suite.comparison,
            text: keepingText ? suite.text : nil)
    }
}

extension ConversationRecord {
    /// One replay of `conversation`, graded (see `ConversationGrader.grade`).
    public static func graded(
        _ conversation: SuiteConversation, turns: [ReplayedTurn], repetition: Int, warmup: Bool,
        readings: [MetricReadings?]? = nil
    ) -> ConversationRecord {
        let graded = ConversationGrader.grade(conversation, turns: turns, readings: readings)
        let script = conversation.script
        var record = ConversationRecord(
            id: conversation.id, repetition: repetition, warmup: warmup, systemPrompt: script.systemPrompt,
            options: script.options, description: conversation.description,
            tags: conversation.tags.isEmpty ? nil : conversation.tags, turns: graded.turns, checks: graded.checks)
        record.variant = conversation.variant
        return record
    }
}
