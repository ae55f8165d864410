import ChatEvalTestKit
import Foundation
import Testing

/// Bisect over a long history does the cheap checks first (issue 43, item 4): both ends are
/// loaded from their own trees before the range is walked, so an end that cannot be measured is
/// refused at once, whatever lies between.
@Suite struct BisectLongRangeTests {
    let cli = CommandLineTests()

    /// A repository of `count` commits written by `git fast-import`: the first holds the project
    /// file and `firstSuite`, each later one edits NOTES.md only, the last also writes `lastSuite`.
    static func repository(count: Int, firstSuite: String, lastSuite: String) async throws -> ScratchRepository {
        let repository = try ScratchRepository(prefix: "chateval-bisect-long")
        try await repository.git("init", "-q", "-b", "main")
        var stream = ""
        func file(_ path: String, _ text: String) { stream += "M 100644 inline \(path)\ndata \(text.utf8.count)\n\(text)\n" }
        for index in 1...count {
            let message = "\(index): notes"
            stream += "commit refs/heads/main\ncommitter t <t@t> \(1_700_000_000 + index) +0000\ndata \(message.utf8.count)\n\(message)\n"
            if index == 1 {
                file("chateval.yaml", "model:\n  path: /no/such/model.gguf\nsuites: suites\n")
                file("suites/qa.yaml", firstSuite)
            }
            if index == count { file("suites/qa.yaml", lastSuite) }
            file("NOTES.md", "note \(index)\n")
        }
        let streamFile = repository.root.appendingPathComponent(".git/import-stream")
        try stream.write(to: streamFile, atomically: true, encoding: .utf8)
        let imported = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "git fast-import --quiet < .git/import-stream && git checkout -q main"],
            in: repository.root)
        try #require(imported.status == 0, "\(imported.stderr)")
        return repository
    }

    /// 20,000 commits whose good end's suite is half-edited: refused naming that end, before the
    /// range is walked. Before, bisect spent 91 s and 328 MB walking the range to say so.
    @Test func aLongRangeWhoseGoodEndDoesNotLoadIsRefusedAtOnce() async throws {
        let good = "name: qa\nconversations:\n  - {id: c, turns: [\"Hi]}\n"  // an unclosed quote
        let fixed = "name: qa\nconversations:\n  - {id: c, turns: [\"Hi\"]}\n"
        let repository = try await Self.repository(count: 20_000, firstSuite: good, lastSuite: fixed)
        let started = Date()
        let outcome = try await cli.run(["bisect", "HEAD~19999", "HEAD"], environment: ["CI": "true"], in: repository.root)
        let seconds = Date().timeIntervalSince(started)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("HEAD~19999 (the good end) cannot be measured: "), "\(outcome.stderr)")
        // 0.2 s on a quiet 2-core AMD EPYC; the bound leaves room for a loaded runner.
        #expect(seconds < 10, "took \(seconds) s")
    }

    /// An end whose model file is missing is refused before the walk too, naming the model.
    @Test func anEndWhoseModelIsMissingIsRefusedBeforeTheWalk() async throws {
        let suite = "name: qa\nconversations:\n  - {id: c, turns: [\"Hi\"]}\n"
        let repository = try await Self.repository(count: 3, firstSuite: suite, lastSuite: suite + "# edited\n")
        // CHATEVAL_MODEL (set for the tests) goes before the project file: cleared, the project's model counts.
        let outcome = try await cli.run(
            ["bisect", "HEAD~2", "HEAD"], environment: ["CI": "true", "CHATEVAL_MODEL": ""], in: repository.root)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("(the good end) cannot be measured: its model /no/such/model.gguf does not exist"), "\(outcome.stderr)")
    }
}
