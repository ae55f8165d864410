import ChatEvalCore
import ChatEvalGrading
import Foundation
import Testing

@testable import ChatEvalSuites

/// Multi-IF's CSV and IFBench's multi-turn JSON Lines import as suites tagged `multi-turn-if`,
/// on small hand-written files in each layout (Fixtures/multi-turn-import/SOURCES.md).
@Suite struct InstructionImportTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/multi-turn-import")
    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @Test func multiIFRowsBecomeConversationsWithEveryTurnChecked() throws {
        let imported = try SuiteLoader.importMultiIF(path: Self.path("multi-if.csv"))
        #expect(imported.warnings.isEmpty)
        let suite = try SuiteLoader.parse(imported.yaml, file: "imported.yaml")
        #expect(suite.conversations.map(\.id) == ["1001-1-en", "1002-1-en"])
        #expect(suite.conversations.allSatisfy { $0.tags == ["multi-turn-if", "multi-if", "english"] })
        let first = suite.conversations[0]
        #expect(first.script.userMessages.count == 3)
        #expect(first.script.userMessages[1].description == "Now add a title in double angular brackets,\nand keep it lowercase.")
        #expect(
            first.turnChecks.map { $0.map(\.type) } == [
                ["change_case:english_lowercase"], ["change_case:english_lowercase", "detectable_format:title"],
                ["change_case:english_lowercase", "detectable_format:title", "length_constraints:number_words"],
            ])
        // Null kwargs (the reference's unset arguments) are dropped; numbers stay numbers.
        #expect(first.turnChecks[2][2].arguments == ["num_words": .integer(50), "relation": .string("at least")])
        // An empty turn_3_prompt ends the conversation after two turns.
        #expect(suite.conversations[1].script.userMessages.count == 2)
        #expect(suite.conversations[1].turnChecks[0][0].arguments == ["keywords": .list([.string("wire"), .string("clip")])])
    }

    @Test func anInstructionWithoutACheckIsRefusedAtItsRowOrLeftOutWhenAsked() throws {
        let path = Self.path("multi-if-unsupported.csv")
        let refused = #expect(throws: SuiteErrors.self) { try SuiteLoader.importMultiIF(path: path) }
        #expect(refused?.errors.count == 1)
        #expect(refused?.errors.first?.line == 3)
        #expect(refused?.errors.first?.message == "turn 1: instruction 'detectable_format:made_up' has no ChatEval check")
        #expect(refused?.errors.first?.hint?.contains("--drop-unsupported") == true)

        let dropped = try SuiteLoader.importMultiIF(path: path, dropUnsupported: true)
        #expect(dropped.warnings.map(\.line) == [3])
        let suite = try SuiteLoader.parse(dropped.yaml, file: "imported.yaml")
        #expect(suite.conversations[1].turnChecks[0].map(\.type) == ["keywords:existence"])
    }

    @Test func aFileWithoutMultiIFColumnsIsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-multi-if-\(UUID()).csv")
        try "prompt,answer\nhello,world\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let refused = #expect(throws: SuiteErrors.self) { try SuiteLoader.importMultiIF(path: file.path) }
        #expect(refused?.errors.first?.message == "no turn_1_prompt column: this is not Multi-IF's CSV")
        #expect(refused?.errors.first?.line == 1)
    }

    @Test func aMessageWithBracesIsRefusedBecauseASuiteWouldReadAPlaceholder() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("braces-\(UUID()).csv")
        try "key,turn_1_prompt\nk,Fill in {{name}} please\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let refused = #expect(throws: SuiteErrors.self) { try SuiteLoader.importMultiIF(path: file.path) }
        #expect(refused?.errors.first?.message.contains("'{{'") == true)
        #expect(refused?.errors.first?.line == 2)
    }

    @Test func csvFieldsMayBeQuotedSpanLinesAndDoubleTheirQuotes() throws {
        let records = try CSVRecords.parse("a,b\r\n\"one, two\",\"say \"\"hi\"\"\nthere\"\nlast,\n")
        #expect(records.map(\.line) == [1, 2, 4])
        #expect(records[1].fields == ["one, two", "say \"hi\"\nthere"])
        #expect(records[2].fields == ["last", ""])
        #expect(throws: CSVRecords.Failure.self) { try CSVRecords.parse("a\n\"never closed\n") }
    }

    @Test func ifbenchLinesCheckTheLastUserTurnAndSayWrittenAnswersAreNotSent() throws {
        let imported = try SuiteLoader.importIFBench(path: Self.path("ifbench.jsonl"))
        #expect(imported.warnings.count == 1)
        #expect(imported.warnings.first?.message.hasPrefix("2 written assistant answer(s) are not sent") == true)
        let suite = try SuiteLoader.parse(imported.yaml, file: "imported.yaml")
        #expect(suite.conversations.map(\.id) == ["a-1", "a-2"])
        #expect(suite.conversations.allSatisfy { $0.tags == ["multi-turn-if", "ifbench"] })
        #expect(suite.conversations[0].turnChecks.map { $0.map(\.type) } == [[], ["startend:end_checker"]])
        #expect(suite.conversations[0].turnChecks[1][0].arguments == ["end_phrase": .string("See you soon.")])
        #expect(suite.conversations[1].script.systemPrompt == "You are a careful writer.")
        #expect(suite.conversations[1].turnChecks[1][0].arguments == ["num_bullets": .integer(2)])
    }

    @Test func ifbenchsOwnConstraintsAreRefusedAtTheirLine() throws {
        let path = Self.path("ifbench-unsupported.jsonl")
        let refused = #expect(throws: SuiteErrors.self) { try SuiteLoader.importIFBench(path: path) }
        #expect(refused?.errors.map(\.line) == [2])
        #expect(refused?.errors.first?.message == "turn 2: instruction 'count:word_count_range' has no ChatEval check")
        let dropped = try SuiteLoader.importIFBench(path: path, dropUnsupported: true)
        let suite = try SuiteLoader.parse(dropped.yaml, file: "imported.yaml")
        #expect(suite.conversations.count == 2)
        #expect(suite.conversations[1].turnChecks[1].isEmpty)
    }

    @Test func aLineThatIsNotJSONIsNamed() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID()).jsonl")
        try "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n{broken\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let refused = #expect(throws: SuiteErrors.self) { try SuiteLoader.importIFBench(path: file.path) }
        #expect(refused?.errors.map(\.line) == [2])
        #expect(refused?.errors.first?.message == "not a JSON object")
    }
}
