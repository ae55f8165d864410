import ChatEvalCore
import ChatEvalGrading
import Foundation

/// Multi-IF's CSV (Meta; `turn_1_prompt`, `turn_1_instruction_id_list`, `turn_1_kwargs`, ...,
/// `key`, `language`) as a suite: one conversation per row, one turn per non-empty
/// `turn_K_prompt`, each checked by that turn's instruction list (Multi-IF's lists already repeat
/// the instructions of earlier turns that still hold).
///
/// Cells as the public set writes them: a prompt is a JSON object `{"role": "user", "content":
/// ...}` (plain text is taken as it is); an id list is a JSON list of ids; kwargs a JSON list with
/// one entry per id, each an object or the JSON text of one.
enum MultiIFImport {
    static func suite(text: String, file: String, dropUnsupported: Bool) throws(SuiteErrors) -> (yaml: String, warnings: [SuiteError]) {
        var importer = InstructionImport(file: file, dropUnsupported: dropUnsupported)
        let records: [CSVRecords.Record]
        do {
            records = try CSVRecords.parse(text)
        } catch {
            throw SuiteErrors([
                SuiteError(.syntax, file: file, line: error.line, error.message, hint: "the file must be CSV with a header row")
            ])
        }
        guard let header = records.first else { throw SuiteErrors([SuiteError(.invalidValue, file: file, "the file is empty")]) }
        let column = Dictionary(
            header.fields.enumerated().map { ($1.trimmingCharacters(in: .whitespaces), $0) }, uniquingKeysWith: { a, _ in a })
        guard column["turn_1_prompt"] != nil else {
            throw SuiteErrors([
                SuiteError(
                    .missingKey, file: file, line: header.line, "no turn_1_prompt column: this is not Multi-IF's CSV",
                    hint: "Multi-IF's columns are turn_K_prompt, turn_K_instruction_id_list and turn_K_kwargs (K = 1, 2, 3), key, language")
            ])
        }
        let turnCount = (1...20).last { column["turn_\($0)_prompt"] != nil } ?? 1
        var conversations: [InstructionImport.Conversation] = []
        for record in records.dropFirst() where !(record.fields.count == 1 && record.fields[0].isEmpty) {
            func cell(_ name: String) -> String? {
                column[name].flatMap { $0 < record.fields.count ? record.fields[$0] : nil }.flatMap { $0.isEmpty ? nil : $0 }
            }
            var conversation = InstructionImport.Conversation(
                id: importer.conversationID(cell("key"), fallback: "row-\(record.line)"), turns: [],
                tags: [Verdict.instructionFollowingTag, "multi-if"]
                    + (cell("language").map { [PromptfooConfig.slug($0, fallback: "language")] } ?? []))
            var usable = true
            for turn in 1...turnCount {
                guard let prompt = cell("turn_\(turn)_prompt") else { break }
                let ids = strings(cell("turn_\(turn)_instruction_id_list"))
                let kwargs = values(cell("turn_\(turn)_kwargs"))
                guard let user = importer.userMessage(content(prompt), line: record.line, turn: turn),
                    let checks = importer.checks(ids: ids ?? [], kwargs: kwargs ?? [], line: record.line, turn: turn)
                else {
                    usable = false
                    break
                }
                if ids == nil, cell("turn_\(turn)_instruction_id_list") != nil {
                    importer.fail(line: record.line, "turn \(turn)'s instruction id list is not a JSON list of strings")
                }
                conversation.turns.append((user, checks))
            }
            if usable, !conversation.turns.isEmpty { conversations.append(conversation) }
        }
        return try importer.suite(conversations, name: PromptfooConfig.suiteName(file), source: "multi-if")
    }

    /// The text of a prompt cell: the `content` of a JSON message, else the cell itself.
    static func content(_ cell: String) -> String {
        guard cell.hasPrefix("{"), case .object(let message)? = try? JSONDecoder().decode(JSONValue.self, from: Data(cell.utf8)),
            case .string(let content)? = message["content"]
        else { return cell }
        return content
    }

    static func strings(_ cell: String?) -> [String]? {
        guard let cell else { return [] }
        guard case .array(let items)? = try? JSONDecoder().decode(JSONValue.self, from: Data(cell.utf8)) else { return nil }
        let strings = items.compactMap { item -> String? in if case .string(let text) = item { text } else { nil } }
        return strings.count == items.count ? strings : nil
    }

    static func values(_ cell: String?) -> [JSONValue]? {
        guard let cell else { return [] }
        guard case .array(let items)? = try? JSONDecoder().decode(JSONValue.self, from: Data(cell.utf8)) else { return nil }
        return items
    }
}
