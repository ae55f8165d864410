import ChatEvalCore
import ChatEvalGrading
import Foundation

/// IFBench's multi-turn JSON Lines (AllenAI) as a suite: one conversation per line, one turn per
/// user message of `messages`, the instructions (`instruction_id_list`, `kwargs`) checked on the
/// last user turn, where IFBench puts the constraint.
///
/// IFBench writes the first answer itself (an `assistant` message); a suite has no written
/// answers, so the model answers that turn too (a warning says so). A `system` message becomes
/// the conversation's system prompt. Only IFEval's instruction ids have ChatEval checks: IFBench's
/// own constraints (its `ifbench_constraints` part) are unsupported.
enum IFBenchImport {
    /// The suite of the JSON Lines `input`, read a line at a time: reading stops at the line where
    /// the suite passes its limit or the problems pass `InstructionImport.maximumProblems`.
    static func suite(_ input: borrowing ImportInput, dropUnsupported: Bool) throws(SuiteErrors) -> (yaml: String, warnings: [SuiteError]) {
        var importer = InstructionImport(
            file: input.path, dropUnsupported: dropUnsupported, name: PromptfooConfig.suiteName(input.path), source: "ifbench")
        var writtenAnswers = 0, firstAnswerLine: Int?
        try input.forEachLine { (number, line) throws(SuiteErrors) in
            if !line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                let read = conversation(line, number: number, importer: &importer)
            {
                if read.writtenAnswers > 0 {
                    writtenAnswers += read.writtenAnswers
                    firstAnswerLine = firstAnswerLine ?? number
                }
                if let conversation = read.conversation { try importer.add(conversation, line: number) }
            }
            try importer.endOfRecord(number)
        }
        if writtenAnswers > 0 {
            importer.warn(
                line: firstAnswerLine,
                "\(writtenAnswers) written assistant answer(s) are not sent: a suite has no written answers, "
                    + "so the model answers those turns itself")
        }
        return try importer.suite()
    }

    /// One line's conversation (nil when the line has a problem, which `importer` records) and
    /// how many written assistant answers it held.
    static func conversation(_ line: String, number: Int, importer: inout InstructionImport) -> (
        conversation: InstructionImport.Conversation?, writtenAnswers: Int
    )? {
        guard case .object(let object)? = JSONValue(parsing: Data(line.utf8)) else {
            importer.fail(
                line: number, "not a JSON object", hint: "each line is one IFBench record: {\"key\": ..., \"messages\": [...], ...}")
            return nil
        }
        guard case .array(let messages)? = object["messages"] else {
            importer.fail(line: number, "no 'messages' list", hint: "IFBench's multi-turn records hold the conversation in 'messages'")
            return nil
        }
        var system: String?
        var users: [String] = []
        var writtenAnswers = 0
        for message in messages {
            guard case .object(let fields) = message, case .string(let role)? = fields["role"],
                case .string(let content)? = fields["content"]
            else {
                importer.fail(line: number, "a message is not {\"role\": ..., \"content\": \"...\"}")
                continue
            }
            switch role {
            case "user": users.append(content)
            case "system" where users.isEmpty && system == nil: system = content
            case "assistant": writtenAnswers += 1
            default: importer.fail(line: number, "a message has the role '\(role)'", hint: "roles are system (first), user and assistant")
            }
        }
        guard !users.isEmpty else {
            importer.fail(line: number, "no user message")
            return (nil, writtenAnswers)
        }
        var ids: [String] = []
        if case .array(let items)? = object["instruction_id_list"] {
            ids = items.compactMap { if case .string(let id) = $0 { id } else { nil } }
        }
        var kwargs: [JSONValue] = []
        if case .array(let items)? = object["kwargs"] { kwargs = items }
        let key: String? =
            if case .string(let text)? = object["key"] { text } else if case .integer(let n)? = object["key"] { String(n) } else { nil }
        var turns: [(user: String, checks: [(type: String, arguments: CheckArgument.Map)])] = []
        for (index, user) in users.enumerated() {
            guard let message = importer.userMessage(user, line: number, turn: index + 1) else { break }
            turns.append((message, []))
        }
        guard turns.count == users.count, let checks = importer.checks(ids: ids, kwargs: kwargs, line: number, turn: users.count)
        else { return (nil, writtenAnswers) }
        turns[turns.count - 1].checks = checks
        let conversation = InstructionImport.Conversation(
            id: importer.conversationID(key, fallback: "line-\(number)"), system: system, turns: turns,
            tags: [Verdict.instructionFollowingTag, "ifbench"])
        return (conversation, writtenAnswers)
    }
}

extension SuiteLoader {
    /// Multi-IF's CSV as a suite to edit (`chateval import multi-if`), with warnings; every
    /// problem is thrown, located at its row's line. Read in bounded memory: see `ImportInput`.
    public static func importMultiIF(path: String, dropUnsupported: Bool = false) throws(SuiteErrors) -> (
        yaml: String, warnings: [SuiteError]
    ) {
        try MultiIFImport.suite(ImportInput(path), dropUnsupported: dropUnsupported)
    }

    /// IFBench's multi-turn JSON Lines as a suite to edit (`chateval import ifbench`).
    public static func importIFBench(path: String, dropUnsupported: Bool = false) throws(SuiteErrors) -> (
        yaml: String, warnings: [SuiteError]
    ) {
        try IFBenchImport.suite(ImportInput(path), dropUnsupported: dropUnsupported)
    }
}
