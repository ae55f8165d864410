import ChatEvalTestKit
import Foundation
import Testing

/// The reading budget where a user meets it: every command that reads a suite, a project file, a
/// promptfoo config or a journal's header answers a hostile one with a located error (exit 2, or a
/// warning naming the journal), never a trap or a stack overflow.
@Suite struct ReadingBudgetCommandTests {
    let cli = CommandLineTests()

    private func folder(_ files: [String: String]) throws -> URL { try CommandLineTests.folder(files, prefix: "budget") }

    /// Nesting from aliases alone, about 1.1 MB: no bracket or indent for a text pre-check to see.
    private static func aliasChain(levels: Int, prefix: String) -> String {
        var lines = [prefix, "x0: &a0 hello"]
        for level in 1..<levels { lines.append("x\(level): &a\(level)\n- *a\(level - 1)") }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: ["suite", "project", "promptfoo"])
    func aliasNestingIsALocatedErrorInEveryReader(_ reader: String) async throws {
        let chain = Self.aliasChain(levels: 60_000, prefix: reader == "promptfoo" ? "prompts: ['{{x}}']" : "name: s")
        let files: [String: String] =
            switch reader {
            case "suite": ["s.yaml": chain + "conversations: [{id: c, turns: [Hi]}]\n"]
            case "project":
                [
                    "chateval.yaml": Self.aliasChain(levels: 20_000, prefix: "threads: 2"),
                    "s.yaml": "name: s\nconversations: [{id: c, turns: [Hi]}]\n",
                ]
            default: ["promptfooconfig.yaml": chain + "tests: [{vars: {x: y}}]\n"]
            }
        let directory = try folder(files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = reader == "promptfoo" ? "promptfooconfig.yaml" : "s.yaml"
        let outcome = try await cli.run(["validate", target], in: directory)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("nesting is over 64 levels deep here, counting what aliases bring"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(reader == "project" ? "chateval.yaml:" : "\(target):"))
        #expect(!outcome.stderr.contains("crashed") && !outcome.stderr.contains("Fatal error"))
    }

    /// A journal whose header carries a hostile suite: recovering it is a warning or an error that
    /// names the file, and the folder stays usable.
    @Test func aPoisonedJournalNamesItselfAndCrashesNothing() async throws {
        let bomb = Self.aliasChain(levels: 60_000, prefix: "name: s") + "conversations: [{id: c, turns: [Hi]}]\n"
        var header = HandWrittenRecord.make(suites: [])
        header["status"] = "running"
        let line = try JSONSerialization.data(
            withJSONObject: ["journal": 1, "record": header, "suites": [["path": "s.yaml", "text": bomb]]], options: [.sortedKeys])
        let directory = try folder([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = directory.appendingPathComponent("20261126T000000Z-aaaaaaa-poisoned.journal")
        try (line + Data("\n".utf8)).write(to: journal)

        let outcome = try await cli.run(["recover", journal.path], in: directory)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(journal.lastPathComponent), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("nesting is over 64 levels deep"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("crashed") && !outcome.stderr.contains("Fatal error"))
    }
}
