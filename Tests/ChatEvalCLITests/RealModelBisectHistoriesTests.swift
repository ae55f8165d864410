import ChatEvalTestKit
import Foundation
import Testing

/// `bisect` on the histories users really have (issue 42), on the real model in throwaway
/// repositories: each commit replayed with its own settings, a commit that does not load skipped
/// and listed, exact culprits named first whatever the timings do.
@Suite(.serialized, .tags(.realModel), .usesAllCores) struct RealModelBisectHistoriesTests {
    let cli = CommandLineTests()

    /// A repository of a facts suite, each commit given as (project file, suite text, subject).
    static func repository(_ prefix: String, _ commits: [(project: String, suite: String, subject: String)]) async throws
        -> ScratchRepository
    {
        let repository = try ScratchRepository(prefix: prefix)
        try await repository.git("init", "-q", "-b", "main")
        try repository.write(".gitignore", "reports/\n")
        for commit in commits {
            try repository.write("chateval.yaml", commit.project)
            try repository.write("suites/facts.yaml", commit.suite)
            try await repository.commit(commit.subject)
        }
        return repository
    }

    static func suite(system: String = "You are a concise assistant.", comment: String = "", maxTokens: Int = 8) -> String {
        """
        # \(comment)
        name: facts
        defaults: {max_tokens: \(maxTokens), system: "\(system)"}
        conversations:
          - id: capital
            turns:
              - user: What is the capital of France?
                checks: [{type: icontains, value: Paris}]
          - {id: bees, turns: ["What do bees make?"]}

        """
    }

    func bisect(_ repository: ScratchRepository, _ extra: [String] = [], environment: [String: String] = [:]) async throws -> (
        status: Int32, json: [String: Any], stderr: String
    ) {
        let outcome = try await cli.run(
            ["bisect", "HEAD~\(repository.commits.count - 1)", "HEAD", "--format", "json"] + extra,
            environment: environment.merging(["CI": "true"]) { first, _ in first }, in: repository.root)
        let json = (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any]
        return (outcome.status, json ?? [:], outcome.stderr)
    }

    /// A commit that switches the model (SmolLM2 → Gemma 3, with its template) is replayed on its
    /// own model: named as the culprit of the work ledger at one replay a commit, the ledger
    /// saying the model changed. Before, bisect refused it (exit 2: "runs another model").
    @Test func aCommitThatChangesTheModelIsNamedWithTheModelChange() async throws {
        let smol = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let gemma = try #require(ProcessInfo.processInfo.environment["CHATEVAL_GEMMA_MODEL"], "CHATEVAL_GEMMA_MODEL is not set")
        let base = "threads: 2\ncompare: {busy_threshold: off}\nmodel:\n  path: \(smol)\n"
        let switched = "threads: 2\ncompare: {busy_threshold: off}\nchat_template: gemma\nmodel:\n  path: \(gemma)\n"
        let repository = try await Self.repository(
            "chateval-bisect-model",
            [
                (base, Self.suite(comment: "one"), "1: the suite"), (base, Self.suite(comment: "two"), "2: a comment"),
                (switched, Self.suite(comment: "two"), "3: Gemma 3 instead"), (switched, Self.suite(comment: "three"), "4: a comment"),
            ])
        // The project file names the model: the test environment's CHATEVAL_MODEL would override it.
        let outcome = try await bisect(repository, ["--max-repeat", "2"], environment: ["CHATEVAL_MODEL": ""])
        #expect(outcome.status == 0 || outcome.status == 4, "\(outcome.stderr)")
        let culprits = RealModelBisectTests.culprits(outcome.json)
        #expect(culprits["ledger"] == [repository.commits[2]], "\(culprits) \(outcome.stderr)")
        #expect(outcome.stderr.contains("culprit   facts: exact work ledger: \(repository.commits[2].prefix(7))"), "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "model \(URL(fileURLWithPath: smol).lastPathComponent) → \(URL(fileURLWithPath: gemma).lastPathComponent)"))
    }

    /// A half-edited commit (an unclosed quote, mended by the next) in the middle is skipped and
    /// listed with its first error line, and the culprit (a longer system prompt, later) is still
    /// found. Before, the whole bisection ended with exit 2 ("problem(s) in the suites").
    @Test func aCommitThatDoesNotParseIsSkippedAndTheCulpritStillFound() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let project = "threads: 2\ncompare: {busy_threshold: off}\n"
        let broken = Self.suite(comment: "half-edited").replacingOccurrences(of: "\"What do bees make?\"", with: "\"What do bees make?")
        let repository = try await Self.repository(
            "chateval-bisect-broken",
            [
                (project, Self.suite(comment: "one"), "1: the suite"), (project, broken, "2: half-edited"),
                (project, Self.suite(comment: "mended"), "3: mended"),
                (project, Self.suite(system: "You are a concise assistant. Answer in plain words.", comment: "mended"), "4: longer prompt"),
                (project, Self.suite(system: "You are a concise assistant. Answer in plain words.", comment: "five"), "5: a comment"),
            ])
        let outcome = try await bisect(repository, ["--max-repeat", "2"])
        #expect(outcome.status == 0 || outcome.status == 4, "\(outcome.stderr)")
        #expect(RealModelBisectTests.culprits(outcome.json)["ledger"] == [repository.commits[3]], "\(outcome.stderr)")
        let skipped = outcome.json["skipped"] as? [[String: Any]] ?? []
        let reason = try #require(skipped.first { $0["subject"] as? String == "2: half-edited" }?["reason"] as? String, "\(skipped)")
        #expect(reason.hasPrefix("it does not load: "), "\(reason)")
        #expect(outcome.stderr.contains("skipped: "))
    }

    /// The only difference is exact (a longer system prompt) and two repetitions cannot decide
    /// the timings: the exact culprit is said as soon as it is found, before the timings' rounds,
    /// and the exit is 4 while a timed signal stays undecided — or 0 if the timings decided too.
    @Test func anExactCulpritIsSaidFirstWhateverTheTimingsDo() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let project = "threads: 2\ncompare: {busy_threshold: off}\n"
        let repository = try await Self.repository(
            "chateval-bisect-exact-first",
            [
                (project, Self.suite(comment: "one"), "1: the suite"), (project, Self.suite(comment: "two"), "2: a comment"),
                (project, Self.suite(system: "You are a concise assistant. Answer in plain words.", comment: "two"), "3: longer prompt"),
                (project, Self.suite(system: "You are a concise assistant. Answer in plain words.", comment: "four"), "4: a comment"),
            ])
        let outcome = try await bisect(repository, ["--max-repeat", "2"])
        let culprit = try #require(
            outcome.stderr.range(of: "culprit   facts: exact work ledger: \(repository.commits[2].prefix(7))"), "\(outcome.stderr)")
        // The ends' exact replay comes first, and its culprit is named before the rounds start.
        let rounds = try #require(outcome.stderr.range(of: ": the ends in rounds"), "\(outcome.stderr)")
        #expect(culprit.lowerBound < rounds.lowerBound)
        let undecided = !(outcome.json["undecided_at_endpoints"] as? [Any] ?? []).isEmpty
        #expect(outcome.status == (undecided ? 4 : 0), "\(outcome.stderr)")
        #expect(RealModelBisectTests.culprits(outcome.json)["ledger"] == [repository.commits[2]])
    }

    /// A commit that sets `threads: 1` (a pure timing change) is replayed with its own settings
    /// and named as the timing culprit, the report saying "threads 2 → 1". Before, bisect refused
    /// it (exit 2: "runs another model or engine setting"). The comment edits around it replay
    /// what the commit before them replays, so they are folded, not probed: before, a busy CI
    /// runner spent eight repetitions a signal failing to tell commit 2 from commit 1 (two equal
    /// things) and the bisection ended undecided. Timings need a machine quiet enough to tell one
    /// thread from two at the ends; the culprit is never another commit. That premise is checked
    /// with the bisection's own measure of the load: where no culprit is named, the ends'
    /// comparison must say the machine was busy (on a loaded 2-core machine one thread can match
    /// or beat two) and name the settings change — a quiet machine that names none fails.
    @Test func aCommitThatSetsThreadsToOneIsNamedWithTheSettingsChange() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let two = "threads: 2\ncompare: {busy_threshold: off}\n", one = "threads: 1\ncompare: {busy_threshold: off}\n"
        let repository = try await Self.repository(
            "chateval-bisect-threads",
            [
                (two, Self.suite(comment: "one", maxTokens: 32), "1: the suite"),
                (two, Self.suite(comment: "two", maxTokens: 32), "2: a comment"),
                (one, Self.suite(comment: "two", maxTokens: 32), "3: threads 1"),
                (one, Self.suite(comment: "four", maxTokens: 32), "4: a comment"),
            ])
        let outcome = try await bisect(repository, ["--max-repeat", "8"])
        #expect(outcome.status == 0 || outcome.status == 4, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("threads 2 → 1"), "\(outcome.stderr)")
        let named = RealModelBisectTests.culprits(outcome.json)["metric"] ?? []
        if named.isEmpty {
            let ends = (outcome.json["endpoints"] as? [String: Any])?["result"] as? [String: Any]
            let notes = ends?["notes"] as? [String] ?? []
            #expect(outcome.status == 4, "\(outcome.stderr)")
            #expect(
                notes.contains { $0.hasPrefix("other processes used") }, "no timing culprit named on a quiet machine: \(outcome.stderr)")
            #expect(notes.contains("the commits' settings differ: threads 2 → 1"), "\(notes)")
            #expect(outcome.stderr.contains("other processes used"), "\(outcome.stderr)")
        }
        let skipped = (outcome.json["skipped"] as? [[String: Any]] ?? []).map { ($0["subject"] as? String, $0["reason"] as? String) }
        #expect(skipped.map(\.0) == ["2: a comment", "4: a comment"], "\(outcome.stderr)")
        // Each names its own edit (commit 4's is the suite's, not commit 3's project file).
        #expect(
            skipped.allSatisfy { $0.1?.hasPrefix("changes no replayed work (its edit of suites/facts.yaml leaves") == true }, "\(skipped)")
        #expect(outcome.stderr.contains(": 1 commit to measure, 2 skipped (no replayed work changed)"), "\(outcome.stderr)")
    }
}

/// Commits whose suites differ only in comments, quoting or layout replay the same work: bisect
/// folds them into the commit before and measures nothing it need not.
@Suite struct BisectFoldTests {
    let cli = CommandLineTests()

    /// Every commit after the good one only reformats the suite: nothing is left to measure, and
    /// bisect says so (exit 4) before it loads a model. Before, it measured all three.
    @Test func aRangeOfFormattingEditsHasNothingToMeasure() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let project = "threads: 2\n"
        let suite = RealModelBisectHistoriesTests.suite(comment: "one")
        let blockStyle = suite.replacingOccurrences(
            of: "  - {id: bees, turns: [\"What do bees make?\"]}", with: "  - id: bees\n\n    turns:\n      - 'What do bees make?'")
        #expect(blockStyle != suite)
        let repository = try await RealModelBisectHistoriesTests.repository(
            "chateval-bisect-fold",
            [
                (project, suite, "1: the suite"), (project, RealModelBisectHistoriesTests.suite(comment: "two"), "2: a comment"),
                (project, blockStyle, "3: block style"), ("# threads as before\n" + project, blockStyle, "4: a comment in the project"),
            ])
        let outcome = try await cli.run(["bisect", "HEAD~3", "HEAD", "--format", "json"], environment: ["CI": "true"], in: repository.root)
        #expect(outcome.status == 4, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(": 0 commits to measure, 3 skipped (no replayed work changed)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("changes what is replayed"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("start "), "nothing is replayed: \(outcome.stderr)")
    }
}
