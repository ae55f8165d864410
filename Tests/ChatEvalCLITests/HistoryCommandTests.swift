import ChatEvalTestKit
import Foundation
import Testing

/// `chateval history` and `chateval index` on generated repositories: the step of a 60-commit
/// history found at its commit, gaps, the index kept in step with the files, bad input.
@Suite struct HistoryCommandTests {
    let cli = CommandLineTests()

    final class Repository {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-history-\(UUID().uuidString)")
        var ids: [String] = []
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        var reports: URL { url.appendingPathComponent("reports") }
        var arguments: [String] { ["--repo", url.path, "--reports", reports.path, "--no-project"] }
    }

    static func sixtyCommitsSteppingAt40() async throws -> Repository {
        let repository = try Repository()
        repository.ids = try await SyntheticHistory.make(in: repository.url, commits: 60, stepAt: 40, seed: 3)
        return repository
    }

    @Test func aStepAtCommit40Of60IsMarkedThereAndNowhereElse() async throws {
        let repository = try await Self.sixtyCommitsSteppingAt40()
        let outcome = try await cli.run(["history"] + repository.arguments + ["--format", "json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let history = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let series = try #require(history["series"] as? [[String: Any]])
        #expect(series.count == 2, "TTFT and the pass rate of the one suite")
        let steps = series.map {
            ($0["metric"] as? String ?? "", ($0["steps"] as? [[String: Any]] ?? []).compactMap { $0["suspect"] as? String })
        }
        #expect(steps.first { $0.0 == "ttft" }?.1 == [repository.ids[40]])
        #expect(steps.first { $0.0 == "pass-rate" }?.1 == [])
        #expect((history["commits"] as? [[String: Any]])?.count == 60)

        let terminal = try await cli.run(["history"] + repository.arguments + ["--metric", "ttft"])
        #expect(terminal.status == 0)
        #expect(terminal.stdout.contains("WORSE TTFT +"))
        #expect(terminal.stdout.contains("at \(repository.ids[40].prefix(7)) \"Change 40\""))
        #expect(terminal.stdout.contains("◀ step (worse)"))
        // Commit 40 changed no input: the cause is outside the repository.
        #expect(terminal.stdout.contains("no commit in the range changed a suite or the project file"), "\(terminal.stdout)")
    }

    /// `compare HEAD~1 HEAD` with no run recorded at HEAD: exit 5, and the hint measures HEAD
    /// against HEAD~1 in one job — it once offered HEAD itself as the baseline.
    @Test func aHeadWithoutARunIsToldToMeasureItAgainstTheBase() async throws {
        let repository = try Repository()
        repository.ids = try await SyntheticHistory.make(in: repository.url, commits: 3, seed: 5)
        let base = String(repository.ids[1].prefix(12)), head = String(repository.ids[2].prefix(12))
        for name in try FileManager.default.contentsOfDirectory(atPath: repository.reports.path) where name.contains(head.prefix(7)) {
            try FileManager.default.removeItem(at: repository.reports.appendingPathComponent(name))
        }
        let outcome = try await cli.run(["compare", "HEAD~1", "HEAD"] + repository.arguments)
        #expect(outcome.status == 5, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("git checkout \(head) && chateval run --baseline \(base)"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("--baseline \(head)"), "\(outcome.stderr)")
    }

    /// A step whose commits 38-40 have no results: of the suspects 38 to 41, only 40 changed the
    /// suite the runs ran; the others are named as unable to have caused it.
    @Test func theSuspectsAreNarrowedToTheCommitsThatChangedAnInput() async throws {
        let repository = try Repository()
        repository.ids = try await SyntheticHistory.make(in: repository.url, commits: 60, stepAt: 40, seed: 3, suiteChangeAt: 40)
        for name in try FileManager.default.contentsOfDirectory(atPath: repository.reports.path)
        where (38...40).contains(where: { name.contains(repository.ids[$0].prefix(7)) }) {
            try FileManager.default.removeItem(at: repository.reports.appendingPathComponent(name))
        }
        let outcome = try await cli.run(["history"] + repository.arguments + ["--metric", "ttft", "--format", "json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let history = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let step = try #require(((history["series"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])?.first)
        let suspects = try #require(step["suspects"] as? [[String: Any]])
        #expect(suspects.compactMap { $0["commit"] as? String } == Array(repository.ids[38...41]))
        #expect(suspects.map { ($0["changed_inputs"] as? [String]) ?? ["?"] } == [[], [], ["suites/smoke.yaml"], []])
        let terminal = try await cli.run(["history"] + repository.arguments + ["--metric", "ttft"])
        let joined = terminal.stdout.replacingOccurrences(of: "\n      ", with: " ")
        #expect(
            joined.contains("inputs changed by \(repository.ids[40].prefix(7)) (suites/smoke.yaml); 3 commits in the range changed none"),
            "\(terminal.stdout)")
    }

    /// A commit in the step's range whose tree cannot be read (as in a shallow clone): its
    /// change is unknown, so the step names no suspects — not "the cause lies outside the
    /// repository" — and each unreadable commit is warned about once. Commits 38-40 have no
    /// results, so the range is 38-41; commit 39's tree is removed (39's and 40's changes unknown).
    @Test func anUnreadableCommitLeavesTheStepWithoutSuspects() async throws {
        let repository = try await Self.sixtyCommitsSteppingAt40()
        for name in try FileManager.default.contentsOfDirectory(atPath: repository.reports.path)
        where (38...40).contains(where: { name.contains(repository.ids[$0].prefix(7)) }) {
            try FileManager.default.removeItem(at: repository.reports.appendingPathComponent(name))
        }
        // fast-import wrote one pack: unpack it into loose objects, so that one can be removed.
        let unpacked = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                "mv .git/objects/pack/*.pack pack.tmp && rm .git/objects/pack/*.idx && git unpack-objects -q < pack.tmp && rm pack.tmp",
            ],
            in: repository.url)
        #expect(unpacked.status == 0, "\(unpacked.stderr)")
        let tree = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["git", "rev-parse", "\(repository.ids[39])^{tree}"], in: repository.url
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.removeItem(at: repository.url.appendingPathComponent(".git/objects/\(tree.prefix(2))/\(tree.dropFirst(2))"))

        let outcome = try await cli.run(["history"] + repository.arguments + ["--metric", "ttft"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("WORSE TTFT +"), "the step is still found: \(outcome.stdout)")
        #expect(!outcome.stdout.contains("no commit in the range changed"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("changed none"), "\(outcome.stdout)")
        for id in [repository.ids[39], repository.ids[40]] {
            let warnings = outcome.stderr.components(separatedBy: "could not read what \(id.prefix(7)) changed").count - 1
            #expect(warnings == 1, "\(outcome.stderr)")
        }
    }

    @Test func sinceAndMaxCountLimitTheWalkAndGapsAreShown() async throws {
        let repository = try Repository()
        repository.ids = try await SyntheticHistory.make(in: repository.url, commits: 12, seed: 4)
        // Commits 5 and 6 lose their results: gaps.
        for name in try FileManager.default.contentsOfDirectory(atPath: repository.reports.path)
        where name.contains(repository.ids[5].prefix(7)) || name.contains(repository.ids[6].prefix(7)) {
            try FileManager.default.removeItem(at: repository.reports.appendingPathComponent(name))
        }
        let outcome = try await cli.run(["history"] + repository.arguments + ["--since", repository.ids[3], "--metric", "decode-tps"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("history   9 commits"))
        #expect(outcome.stdout.contains("2 commits without results"))
        #expect(!outcome.stdout.contains(String(repository.ids[2].prefix(7))))
        let limited = try await cli.run(["history"] + repository.arguments + ["--max-count", "3", "--format", "json"])
        let history = try #require(try JSONSerialization.jsonObject(with: Data(limited.stdout.utf8)) as? [String: Any])
        #expect((history["commits"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == Array(repository.ids.suffix(3)))
    }

    @Test func theIndexFollowsTheFilesAndRebuilds() async throws {
        let repository = try Repository()
        repository.ids = try await SyntheticHistory.make(in: repository.url, commits: 5, seed: 5)
        let first = try await cli.run(["index"] + repository.arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("files     5 read, 0 forgotten"))
        let again = try await cli.run(["index"] + repository.arguments)
        #expect(again.stdout.contains("files     0 read, 0 forgotten"))
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: repository.reports.path).first { $0.hasSuffix(".json") })
        try FileManager.default.removeItem(at: repository.reports.appendingPathComponent(file))
        let removed = try await cli.run(["index"] + repository.arguments)
        #expect(removed.stdout.contains("files     0 read, 1 forgotten"))
        let rebuilt = try await cli.run(["index", "--rebuild"] + repository.arguments)
        #expect(rebuilt.stdout.contains("files     4 read, 0 forgotten"))
        let status = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["git", "status", "--porcelain"], in: repository.url)
        #expect(status.stdout.isEmpty, "the index folder ignores itself: \(status.stdout)")
    }

    @Test func runsRecordedInGitNotesAreRead() async throws {
        let repository = try Repository()
        repository.ids = try await SyntheticHistory.make(in: repository.url, commits: 3, seed: 6)
        // Move commit 1's run from its file into a note.
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: repository.reports.path).first { $0.contains(repository.ids[1].prefix(7)) })
        let data = try Data(contentsOf: repository.reports.appendingPathComponent(name))
        try FileManager.default.removeItem(at: repository.reports.appendingPathComponent(name))
        let line = String(decoding: try JSONSerialization.data(withJSONObject: try JSONSerialization.jsonObject(with: data)), as: UTF8.self)
        let note = repository.url.appendingPathComponent("note.txt")
        try Data(line.utf8).write(to: note)
        let added = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["git", "notes", "--ref=chateval", "add", "-F", note.path, repository.ids[1]],
            environment: [
                "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@t",
            ],
            in: repository.url)
        #expect(added.status == 0, "\(added.stderr)")
        let outcome = try await cli.run(["history"] + repository.arguments + ["--metric", "ttft", "--format", "json"])
        let history = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let points = ((history["series"] as? [[String: Any]])?.first?["points"] as? [[String: Any]]) ?? []
        #expect(points.compactMap { $0["commit"] as? String } == repository.ids)
    }

    @Test(arguments: [
        (["--metric", "ttfx"], "--metric ttfx: unknown metric; did you mean 'ttft'?"),
        (["--since", "no-such-tag"], "'no-such-tag' names no commit"),
        (["--max-count", "0"], "--max-count must be at least 1"),
        (
            ["--format", "json", "--format", "junit"],
            "would all go to standard output; write all but one to files with --output FILE (e.g. --output report.xml)"
        ),
        (["--format", "html", "--format", "terminal"], "(e.g. --output report.txt)"),
        (["--output", "report.pdf"], "cannot tell the format from the extension 'pdf'"),
    ])
    func badInputIsExit2WithAMessage(_ arguments: [String], _ message: String) async throws {
        let repository = try Repository()
        repository.ids = try await SyntheticHistory.make(in: repository.url, commits: 2, seed: 7)
        let outcome = try await cli.run(["history"] + repository.arguments + arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func outsideARepositoryIsBadInput() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-repo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await cli.run(["history", "--no-project"], in: folder)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("no git repository"))
    }
}
