import ChatEvalTestKit
import Foundation
import Testing

/// Records and repositories a hostile user or CI fetch hands over (issue 28, findings 4, 5, 14 and
/// 15), each through the `chateval` binary: a record's indices bounded wherever it is read, a notes
/// ref that is not a commit, a shallow clone, a read-only reports folder, a short commit that is a
/// path, an oversize journal. Each failed (or crashed) before its fix.
@Suite struct HostileInputRecordsTests {
    let cli = CommandLineTests()

    /// A temporary folder holding `files`, removed when the value is released.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-records-\(UUID().uuidString)")
        init(_ files: [String: String] = [:]) throws {
            for (name, text) in files {
                let file = url.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        var path: String { url.path }

        @discardableResult
        func git(_ arguments: String...) async throws -> String {
            let outcome = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/git"), ["-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments, in: url)
            guard outcome.status == 0 else { throw GitFailed(description: "git \(arguments): \(outcome.stderr)") }
            return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    struct GitFailed: Error, CustomStringConvertible { let description: String }

    /// A one-turn run as JSON, its turn at `turnIndex`, of `commit` (abbreviated to `shortCommit`)
    /// when given, after `change`.
    private static func run(
        turnIndex: Int, commit: String? = nil, shortCommit: String? = nil, _ change: (inout [String: Any]) -> Void = { _ in }
    ) throws -> String {
        try HandWrittenRecord.oneTurn { record in
            defer { change(&record) }
            HandWrittenRecord.editFirstTurn(&record) { $0["index"] = turnIndex }
            if let commit {
                record["git"] = [
                    "commit": commit, "short_commit": shortCommit ?? String(commit.prefix(7)), "branch": "main", "is_detached": false,
                    "is_unborn": false, "modified_count": 0, "untracked_count": 0, "is_shallow": false, "is_dirty": false,
                ]
            }
        }
    }

    // MARK: 4. Turn indices out of range

    /// A result file with turn index Int.max, −1 or 2^40 trapped `compare` (an overflow, an index
    /// out of range, an 8 TB allocation) and `report`: now refused, naming file and field.
    @Test(arguments: [Int.max, -1, 1 << 40])
    func aResultFileWithAnOutOfRangeTurnIndexIsRefused(_ index: Int) async throws {
        let folder = try Folder(["a.json": try Self.run(turnIndex: 0), "b.json": try Self.run(turnIndex: index)])
        let field = "suites[0].conversations[0].turns[0].index: \(index) is not a turn of this conversation (0 to 0)"
        for arguments in [["compare", "a.json", "b.json"], ["report", "b.json", "--format", "markdown"]] {
            let outcome = try await cli.run(arguments + ["--no-project"], in: folder.url)
            #expect(outcome.status == 2, "\(arguments[0]): \(outcome.stderr)")
            #expect(outcome.stderr.contains("b.json") && outcome.stderr.contains(field), "\(arguments[0]): \(outcome.stderr)")
        }
    }

    /// One bad fetched note broke the CI gate: the note's run with turn index 2^40 was compared.
    /// Now that line is skipped, named with its field, and the commit has no run (exit 5).
    @Test func aGitNoteWithAnOutOfRangeTurnIndexIsSkippedWithItsField() async throws {
        let folder = try Folder(["a.json": try Self.run(turnIndex: 0)])
        try await folder.git("init", "-q", "-b", "main")
        try await folder.git("commit", "-q", "--allow-empty", "-m", "first")
        let head = try await folder.git("rev-parse", "HEAD")
        try await folder.git("notes", "--ref=chateval", "add", "-m", try Self.run(turnIndex: 1 << 40, commit: head), "HEAD")
        for arguments in [["compare", "a.json", "HEAD"], ["report", "HEAD"]] {
            let outcome = try await cli.run(arguments + ["--no-project"], in: folder.url)
            #expect(outcome.status == 5, "\(arguments[0]): \(outcome.stderr)")
            #expect(
                outcome.stderr.contains(
                    "line 1: not a run this ChatEval can trust: suites[0].conversations[0].turns[0].index: 1099511627776"),
                "\(arguments[0]): \(outcome.stderr)")
        }
    }

    /// The journal line a result file is made from: the header (the run's start, with its suite's
    /// text), then one turn per line.
    private static func journal(turnIndices: [Int]) throws -> String {
        var record = HandWrittenRecord.make(suites: [])
        record["status"] = "running"
        let header: [String: Any] = [
            "journal": 1, "record": record,
            "suites": [["path": "s.yaml", "text": "name: s\nconversations: [{id: c, turns: [Hi]}]\n"]],
        ]
        var lines: [[String: Any]] = [header]
        for index in turnIndices {
            var turn = HandWrittenRecord.answeredTurn
            turn["index"] = index
            lines.append(["suite": "s", "conversation": "c", "repetition": 1, "warmup": false, "turn": turn])
        }
        return try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) + "\n" }.joined()
    }

    /// `recover` took a line with turn index Int.max and wrote a result that crashed `report`:
    /// the line is now left out and named, and the recovered result reports. A turn index past
    /// the conversation's turns is refused with both numbers.
    @Test func recoverLeavesOutATurnIndexNoRunCanHave() async throws {
        let folder = try Folder([
            "run.journal": try Self.journal(turnIndices: [0, Int.max]), "far.journal": try Self.journal(turnIndices: [0, 3]),
        ])
        let recovered = try await cli.run(["recover", "run.journal"], in: folder.url)
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(recovered.stderr.contains("line 3: turn.index: \(Int.max) is not a turn index (0 to 99999)"), "\(recovered.stderr)")
        let report = try await cli.run(["report", "run.json", "--no-project"], in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")

        let far = try await cli.run(["recover", "far.journal"], in: folder.url)
        #expect(far.status == 2, "\(far.stderr)")
        #expect(far.stderr.contains("far.journal: the journal has turn index 3 of s/c, which has 1 turn(s)"), "\(far.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("far.json").path))
    }

    // MARK: 5. A notes ref that is not a commit

    /// refs/notes/chateval pointing at a blob made libgit2 segfault in `history` about one run in
    /// three, and `compare`/`report` exit 1, the regression code: now exit 2, naming the ref and the fix.
    @Test func aNotesRefPointingAtABlobIsBadInputWithItsFix() async throws {
        let folder = try Folder(["a.json": try Self.run(turnIndex: 0), "blob.txt": "not a notes commit\n"])
        try await folder.git("init", "-q", "-b", "main")
        try await folder.git("commit", "-q", "--allow-empty", "-m", "first")
        let blob = try await folder.git("hash-object", "-w", "blob.txt")
        try await folder.git("update-ref", "refs/notes/chateval", blob)
        let commands = [
            ["history", "--reports", "reports"], ["compare", "a.json", "HEAD"], ["report", "HEAD"], ["index", "--reports", "reports"],
        ]
        for arguments in commands {
            for _ in 0..<(arguments[0] == "history" ? 3 : 1) {
                let outcome = try await cli.run(arguments + ["--no-project"], in: folder.url)
                #expect(outcome.status == 2, "\(arguments[0]): \(outcome.stderr)")
                #expect(outcome.stderr.contains("refs/notes/chateval points at a blob (\(blob.prefix(12)))"), "\(outcome.stderr)")
                #expect(outcome.stderr.contains("git update-ref -d refs/notes/chateval"), "\(outcome.stderr)")
            }
        }
    }

    // MARK: 14. Shallow clones

    /// `actions/checkout` clones at depth 1: `history` failed ("git_revwalk_next: object not
    /// found"). Now it reads the commit there is and says the history is cut, and how to fetch it.
    @Test func historyInAShallowCloneReadsWhatIsThereAndSaysItIsCut() async throws {
        let origin = try Folder()
        try await SyntheticHistory.make(in: origin.url, commits: 3)
        let clone = try Folder()
        try await clone.git("clone", "-q", "--depth", "1", "file://\(origin.path)", "shallow")
        let outcome = try await cli.run(
            ["history", "--repo", clone.path + "/shallow", "--reports", origin.path + "/reports", "--no-project", "--format", "json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("the history is cut: this shallow clone holds 1 commit(s)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("git fetch --unshallow") && outcome.stderr.contains("fetch-depth: 0"), "\(outcome.stderr)")
        let history = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect((history["commits"] as? [[String: Any]])?.count == 1)
    }

    // MARK: 15. A read-only reports folder, a short commit that is a path, an oversize journal

    /// A read-only reports folder: `history` said the index was damaged and suggested `index
    /// --rebuild`, which failed too. Now it says the folder is read-only and answers from an index
    /// in memory, writing nothing; `index` says the index was not kept (exit 3). Root writes
    /// through a read-only mode, so the binary runs without CAP_DAC_OVERRIDE (setpriv).
    @Test func historyOnAReadOnlyReportsFolderWorksWithoutWritingTheIndex() async throws {
        let repository = try Folder()
        try await SyntheticHistory.make(in: repository.url, commits: 3)
        let reports = repository.url.appendingPathComponent("reports")
        for name in try FileManager.default.contentsOfDirectory(atPath: reports.path) {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: reports.appendingPathComponent(name).path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: reports.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: reports.path) }
        func unprivileged(_ arguments: [String]) async throws -> CommandLineTests.Outcome {
            try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--bounding-set=-dac_override,-dac_read_search", "--", CommandLineTests.binary.path] + arguments
                    + ["--repo", repository.path, "--reports", reports.path, "--no-project"])
        }
        let history = try await unprivileged(["history", "--format", "json"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stderr.contains("\(reports.path) is read-only"), "\(history.stderr)")
        #expect(history.stderr.contains("built in memory") && !history.stderr.contains("damaged"), "\(history.stderr)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        #expect((parsed["series"] as? [[String: Any]])?.isEmpty == false, "the runs were read")
        #expect(!FileManager.default.fileExists(atPath: reports.appendingPathComponent(".chateval").path), "nothing written")
        let index = try await unprivileged(["index"])
        #expect(index.status == 3, "\(index.stderr)")
        #expect(index.stderr.contains("the index was not kept") && !index.stderr.contains("--rebuild"), "\(index.stderr)")
    }

    /// `merge` named its output after the shards' `git.short_commit`: `x/../../..` wrote the merged
    /// run to `a/..-<id>.json`, out of `--reports a/out`. Now the shards are refused, naming the field.
    @Test func mergeRefusesAShortCommitThatIsAPath() async throws {
        let shards = try (1...2).map { index in
            try Self.run(turnIndex: 0, commit: String(repeating: "a", count: 40), shortCommit: "x/../../..") { record in
                record["shard"] = ["index": index, "count": 2]
                var suites = record["suites"] as? [[String: Any]] ?? []
                suites[0]["text"] = "name: s\nconversations: [{id: c, turns: [Hi]}]\n"
                record["suites"] = suites
            }
        }
        let folder = try Folder(["s1.json": shards[0], "s2.json": shards[1]])
        // Where the traversal would lead once the name's first part exists as a folder.
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("a/out/20261123T100000Z-x"), withIntermediateDirectories: true)
        let outcome = try await cli.run(["merge", "s1.json", "s2.json", "--reports", "a/out"], in: folder.url)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("git.short_commit: 'x/../../..' is not an abbreviated commit id"), "\(outcome.stderr)")
        let written = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        #expect(written.filter { $0.hasSuffix(".json") }.sorted() == ["s1.json", "s2.json"], "\(written)")
    }

    /// `recover` read a 315 MB journal whole, though journals are read up to 256 MiB: now refused
    /// by its size, unread (a sparse file: no disk is used).
    @Test func anOversizeJournalIsRefusedByItsSize() async throws {
        let folder = try Folder()
        let journal = folder.url.appendingPathComponent("big.journal")
        _ = FileManager.default.createFile(atPath: journal.path, contents: nil)
        let handle = try FileHandle(forWritingTo: journal)
        try handle.truncate(atOffset: 300 << 20)
        try handle.close()
        let outcome = try await cli.run(["recover", "big.journal"], in: folder.url)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("big.journal: is 300 MiB; journals are read up to 256 MiB"), "\(outcome.stderr)")
    }
}
