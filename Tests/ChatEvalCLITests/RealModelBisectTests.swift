import ChatEvalTestKit
import Foundation
import Testing

/// `bisect` end to end on the real model, in a temporary repository of six commits: commit 3
/// makes a check fail, commit 5 lengthens the system prompt, the others change only NOTES.md.
/// The exact signals (the check on exact answers, the work ledger) are decided by one greedy
/// replay per commit whatever the machine is doing; TTFT, decided by timings on a machine
/// `make test` keeps busy, may stay undecided at three repetitions — but is never pinned on
/// another commit.
@Suite(.serialized, .tags(.realModel), .usesAllCores) struct RealModelBisectTests {
    let cli = CommandLineTests()

    final class Repository: ScratchRepository {
        let cli: CommandLineTests

        init(cli: CommandLineTests) async throws {
            self.cli = cli
            try super.init(prefix: "chateval-bisect")
            try await git("init", "-q", "-b", "main")
            try write(".gitignore", "reports/\n")
            try write("chateval.yaml", "threads: 2\ncompare: {busy_threshold: off}\n")
            let system = "You are a concise assistant."
            try write("suites/facts.yaml", suite(system: system, expected: "Paris"))
            try await commit("1: the facts suite")
            try write("NOTES.md", "Notes.\n")
            try await commit("2: notes")
            try write("suites/facts.yaml", suite(system: system, expected: "Lyon"))
            try await commit("3: expect Lyon")
            try write("NOTES.md", "More notes.\n")
            try await commit("4: more notes")
            try write("suites/facts.yaml", suite(system: system + " Answer in one short sentence, without preamble.", expected: "Lyon"))
            try await commit("5: a longer system prompt")
            try write("NOTES.md", "Even more notes.\n")
            try await commit("6: notes again")
        }

        func suite(system: String, expected: String) -> String {
            """
            name: facts
            defaults: {max_tokens: 8, system: "\(system)"}
            conversations:
              - id: capital
                turns:
                  - user: What is the capital of France?
                    checks: [{type: icontains, value: \(expected)}]
              - id: bees
                turns: ["What do bees make?"]

            """
        }

        /// `chateval bisect HEAD~5 HEAD` as JSON, decoded.
        func bisect() async throws -> (status: Int32, json: [String: Any], stderr: String) {
            let outcome = try await cli.run(
                ["bisect", "HEAD~5", "HEAD", "--max-repeat", "3", "--format", "json"], environment: ["CI": "true"], in: root)
            let json = (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any]
            return (outcome.status, json ?? [:], outcome.stderr)
        }

        var journal: URL? {
            let folder = root.appendingPathComponent("reports/.chateval")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.first { $0.hasPrefix("bisect-") }.map { folder.appendingPathComponent($0) }
        }
    }

    /// Each finding's signal kind (its JSON key) → the commit ids of its culprits.
    static func culprits(_ json: [String: Any]) -> [String: [String]] {
        let states = (json["states"] as? [[String: Any]] ?? []).map { $0["commit"] as? String ?? "" }
        var found: [String: [String]] = [:]
        for finding in json["findings"] as? [[String: Any]] ?? [] {
            let kind = (finding["signal"] as? [String: Any])?.keys.first ?? "?"
            let named = (finding["culprits"] as? [[String: Any]] ?? []).compactMap { $0["state"] as? Int }.map { states[$0] }
            found[kind, default: []] += named
        }
        return found
    }

    static func probes(_ json: [String: Any]) -> [[String: Any]] {
        ([json["exact_endpoints"] as Any, json["endpoints"] as Any] + (json["probes"] as? [Any] ?? [])).compactMap {
            ($0 as? [String: Any])?["result"] as? [String: Any]
        }
    }

    @Test func namesTheCommitOfEachDifferenceSkipsTheRestAndResumesWithoutMeasuringAgain() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let repository = try await Repository(cli: cli)
        let commits = repository.commits

        let first = try await repository.bisect()
        #expect(first.status == 0 || first.status == 4, "\(first.stderr)")
        let skipped = (first.json["skipped"] as? [[String: Any]] ?? []).compactMap { $0["subject"] as? String }
        #expect(skipped == ["2: notes", "4: more notes", "6: notes again"], "\(first.stderr)")
        #expect((first.json["skipped"] as? [[String: Any]])?.first?["reason"] as? String == "changes no input (only NOTES.md)")
        let culprits = Self.culprits(first.json)
        #expect(culprits["exact_check"] == [commits[2]], "\(culprits)")
        #expect(culprits["ledger"] == [commits[4]], "\(culprits)")
        // TTFT may stay undecided at three repetitions on a busy machine; it is never another commit.
        #expect((culprits["metric"] ?? []).allSatisfy { $0 == commits[4] }, "\(culprits)")
        #expect(Self.probes(first.json).allSatisfy { $0["resumed"] as? Bool == false })

        // Interrupted after its first probes: the journal keeps the ends' exact replay and one probe.
        let journalURL = try #require(repository.journal)
        var journal = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: journalURL)) as? [String: Any])
        let kept = 2
        journal["probes"] = Array((journal["probes"] as? [Any] ?? []).prefix(kept))
        try JSONSerialization.data(withJSONObject: journal).write(to: journalURL)

        let resumed = try await repository.bisect()
        #expect(resumed.status == first.status, "\(resumed.stderr)")
        let results = Self.probes(resumed.json)
        #expect(results.filter { $0["resumed"] as? Bool == true }.count == kept, "\(results)")
        #expect(results.first?["resumed"] as? Bool == true, "the ends' exact replay, measured first, is read back")
        #expect(Self.culprits(resumed.json)["exact_check"] == [commits[2]])
        #expect(Self.culprits(resumed.json)["ledger"] == [commits[4]])
        #expect(resumed.stderr.contains("resuming  \(kept) probes kept in"), "\(resumed.stderr)")
    }

    /// The runtime is the code under test: each commit is built and served from a scratch copy;
    /// commit 3 breaks the build and is skipped, commit 5 changes the server's chat template. Resumed,
    /// the bisection skips commit 3 again from its journal instead of building it again.
    @Test func aServedRuntimeBuiltFromEachCommitSkipsABrokenBuild() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_LLAMA_SERVER"], "CHATEVAL_LLAMA_SERVER is not set")
        let repository = try ScratchRepository(prefix: "chateval-bisect-served")
        try await repository.git("init", "-q", "-b", "main")
        try repository.write(".gitignore", "reports/\n")
        try repository.write("chateval.yaml", "compare: {busy_threshold: off}\n")
        try repository.write(
            "suites/facts.yaml",
            """
            name: facts
            defaults: {max_tokens: 8, system: "You are a concise assistant."}
            conversations:
              - {id: capital, turns: ["What is the capital of France?"]}

            """)
        // Each failed build is counted in a file outside the repository.
        let failedBuilds = repository.root.deletingLastPathComponent().appendingPathComponent("failed-builds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: failedBuilds) }
        try repository.write("build.sh", "test ! -f BROKEN || { echo failed >> \"$FAILED_BUILDS\"; exit 1; }\n")
        try repository.write("server-args", "")
        try await repository.commit("1: the suite, the build and the server")
        try repository.write("NOTES.md", "notes\n")
        try await repository.commit("2: notes")
        try repository.write("BROKEN", "")
        try await repository.commit("3: a change that breaks the build")
        try FileManager.default.removeItem(at: repository.root.appendingPathComponent("BROKEN"))
        try await repository.commit("4: the build mended")
        try repository.write("server-args", "--chat-template gemma\n")
        try await repository.commit("5: the server's chat template")

        let arguments = [
            "bisect", "HEAD~4", "HEAD", "--max-repeat", "2", "--format", "json", "--build", "sh build.sh", "--serve",
            "exec \"$CHATEVAL_LLAMA_SERVER\" -m \"$CHATEVAL_MODEL\" --host 127.0.0.1 --port \"$PORT\" -t 1 -c 1024 $(cat server-args)",
        ]
        let environment = ["CI": "true", "FAILED_BUILDS": failedBuilds.path]
        let outcome = try await cli.run(arguments, environment: environment, in: repository.root)
        #expect(outcome.status == 0 || outcome.status == 4, "\(outcome.stderr)")
        let json = try #require((try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any], "\(outcome.stderr)")
        let skipped = json["skipped"] as? [[String: Any]] ?? []
        #expect(skipped.compactMap { $0["subject"] as? String } == ["3: a change that breaks the build"], "\(outcome.stderr)")
        #expect((skipped.first?["reason"] as? String)?.hasPrefix("the build failed (exit 1; ") == true)
        #expect(Self.culprits(json)["ledger"] == [repository.commits[4]], "\(Self.culprits(json))")
        // The skip is said as it happens, not only in the report.
        #expect(outcome.stderr.contains("skipped: ") && outcome.stderr.contains("the build failed"))
        #expect(try String(contentsOf: failedBuilds, encoding: .utf8) == "failed\n")

        // Interrupted after the endpoints: resumed, the broken commit is skipped from the journal, not built again.
        let journalURL = try #require(
            try FileManager.default.contentsOfDirectory(
                at: repository.root.appendingPathComponent("reports/.chateval"), includingPropertiesForKeys: nil
            ).first { $0.lastPathComponent.hasPrefix("bisect-") && $0.pathExtension == "json" })
        var journal = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: journalURL)) as? [String: Any])
        #expect((journal["unmeasurable"] as? [String: String])?[repository.commits[2]]?.hasPrefix("the build failed") == true)
        journal["probes"] = Array((journal["probes"] as? [Any] ?? []).prefix(1))
        try JSONSerialization.data(withJSONObject: journal).write(to: journalURL)
        let resumed = try await cli.run(arguments, environment: environment, in: repository.root)
        #expect(resumed.status == outcome.status, "\(resumed.stderr)")
        let resumedJSON = try #require(
            (try? JSONSerialization.jsonObject(with: Data(resumed.stdout.utf8))) as? [String: Any], "\(resumed.stderr)")
        #expect(
            (resumedJSON["skipped"] as? [[String: Any]] ?? []).compactMap { $0["subject"] as? String }
                == ["3: a change that breaks the build"], "\(resumed.stderr)")
        #expect(Self.culprits(resumedJSON)["ledger"] == [repository.commits[4]], "\(Self.culprits(resumedJSON))")
        #expect(try String(contentsOf: failedBuilds, encoding: .utf8) == "failed\n", "the broken commit was built again")
    }

    /// An end that cannot be built is bad input naming that end, not a crash report of the skip
    /// (no model is loaded: the build fails before any server starts).
    @Test func anEndWhoseBuildFailsIsRefusedByName() async throws {
        let repository = try ScratchRepository(prefix: "chateval-bisect-end")
        try await repository.git("init", "-q", "-b", "main")
        try repository.write("suites/facts.yaml", "name: facts\nconversations:\n  - {id: capital, turns: [\"Capital of France?\"]}\n")
        try await repository.commit("1: the suite")
        try repository.write("NOTES.md", "notes\n")
        try await repository.commit("2: notes")
        let outcome = try await cli.run(
            ["bisect", "HEAD~1", "HEAD", "--build", "exit 7", "--serve", "exec sleep 60"], environment: ["CI": "true"],
            in: repository.root)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("chateval: error: HEAD~1 (the good end) cannot be measured: the build failed (exit 7;"),
            "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("BisectSkip"), "\(outcome.stderr)")
    }

    @Test func buildNeedsServe() async throws {
        let outcome = try await cli.run(["bisect", "HEAD~1", "HEAD", "--build", "make"], environment: ["CI": "true"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--build needs --serve"))
    }

    @Test func goodMustBeBeforeBadOnTheFirstParentLine() async throws {
        let repository = try await Repository(cli: cli)
        let outcome = try await cli.run(["bisect", "HEAD", "HEAD~3"], environment: ["CI": "true"], in: repository.root)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("is not on the first-parent line of HEAD~3"), "\(outcome.stderr)")
        let same = try await cli.run(["bisect", "HEAD", "HEAD"], environment: ["CI": "true"], in: repository.root)
        #expect(same.status == 2)
        #expect(same.stderr.contains("are the same commit"))
    }
}
