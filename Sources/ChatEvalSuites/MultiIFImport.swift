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
    /// The suite of the CSV `input`, read a chunk at a time: reading stops at the row where the
    /// suite passes its limit or the problems pass `InstructionImport.maximumProblems`.
    static func suite(_ input: borrowing ImportInput, dropUnsupported: Bool) throws(SuiteErrors) -> (yaml: String, warnings: [SuiteError]) {
        let file = input.path
        var importer = InstructionImport(
            file: file, dropUnsupported: dropUnsupported, name: PromptfooConfig.suiteName(file), source: "multi-if")
        var parser = CSVRecords()
        var columns: Columns?
        func take(_ records: [CSVRecords.Record]) throws(SuiteErrors) {
            for record in records {
                guard let known = columns else {
                    columns = try Columns(header: record, file: file)
                    continue
                }
                if !(record.fields.count == 1 && record.fields[0].isEmpty),
                    let conversation = known.conversation(record, importer: &importer)
                {
                    try importer.add(conversation, line: record.line)
                }
                try importer.endOfRecord(record.line)
            }
        }
        func syntax(_ failure: CSVRecords.Failure) -> SuiteErrors {
            SuiteErrors([
                SuiteError(.syntax, file: file, line: failure.line, failure.message, hint: "the file must be CSV with a header row")
            ])
        }
        try input.forEachChunk { (chunk: UnsafeRawBufferPointer) throws(SuiteErrors) in
            let records: [CSVRecords.Record]
            do throws(CSVRecords.Failure) { records = try parser.feed(chunk) } catch { throw syntax(error) }
            try take(records)
        }
        let last: [CSVRecords.Record]
        do throws(CSVRecords.Failure) { last = try parser.finish() } catch { throw syntax(error) }
        try take(last)
        guard columns != nil else { throw SuiteErrors([SuiteError(.invalidValue, file: file, "the file is empty")]) }
        return try importer.suite()
    }

    /// The header row's columns: where each named cell is, and how many turns a row may have.
    struct Columns {
        let index: [String: Int]
        let turnCount: Int

        init(header: CSVRecords.Record, file: String) throws(SuiteErrors) {
            index = Dictionary(
                header.fields.enumerated().map { ($1.trimmingCharacters(in: .whitespaces), $0) }, uniquingKeysWith: { a, _ in a })
            guard index["turn_1_prompt"] != nil else {
                throw SuiteErrors([
                    SuiteError(
                        .missingKey, file: file, line: header.line, "no turn_1_prompt column: this is not Multi-IF's CSV",
                        hint:
                            "Multi-IF's columns are turn_K_prompt, turn_K_instruction_id_list and turn_K_kwargs (K = 1, 2, 3), "
                            + "key, language"
                    )
                ])
            }
            turnCount = (1...20).last { [index] in index["turn_\($0)_prompt"] != nil } ?? 1
        }

        /// `record`'s conversation; nil when a turn has a problem (`importer` records it) or the row none.
        func conversation(_ record: CSVRecords.Record, importer: inout InstructionImport) -> InstructionImport.Conversation? {
            func cell(_ name: String) -> String? {
                index[name].flatMap { $0 < record.fields.count ? record.fields[$0] : nil }.flatMap { $0.isEmpty ? nil : $0 }
            }
            var conversation = InstructionImport.Conversation(
                id: importer.conversationID(cell("key"), fallback: "row-\(record.line)"), turns: [],
                tags: [Verdict.instructionFollowingTag, "multi-if"]
                    + (cell("language").map { [PromptfooConfig.slug($0, fallback: "language")] } ?? []))
            for turn in 1...turnCount {
                guard let prompt = cell("turn_\(turn)_prompt") else { break }
                let ids = MultiIFImport.strings(cell("turn_\(turn)_instruction_id_list"))
                let kwargs = MultiIFImport.values(cell("turn_\(turn)_kwargs"))
                guard let user = importer.userMessage(MultiIFImport.content(prompt), line: record.line, turn: turn),
                    let checks = importer.checks(ids: ids ?? [], kwargs: kwargs ?? [], line: record.line, turn: turn)
                else { return nil }
                if ids == nil, cell("turn_\(turn)_instruction_id_list") != nil {
                    importer.fail(line: record.line, "turn \(turn)'s instruction id list is not a JSON list of strings")
                }
                conversation.turns.append((user, checks))
            }
            return conversation.turns.isEmpty ? nil : conversation
        }
    }

    /// The text of a prompt cell: the `content` of a JSON message, else the cell itself.
    static func content(_ cell: String) -> String {
        guard cell.hasPrefix("{"), case .object(let message)? = JSONValue(parsing: Data(cell.utf8)),
            case .string(let content)? = message["content"]
        else { return cell }
        return content
    }

    static func strings(_ cell: String?) -> [String]? {
        guard let cell else { return [] }
        guard case .array(let items)? = JSONValue(parsing: Data(cell.utf8)) else { return nil }
        let strings = items.compactMap { item -> String? in if case .string(let text) = item { text } else { nil } }
        return strings.count == items.count ? strings : nil
    }

    static func values(_ cell: String?) -> [JSONValue]? {
        guard let cell else { return [] }
        guard case .array(let items)? = JSONValue(parsing: Data(cell.utf8)) else { return nil }
        return items
    }
}
