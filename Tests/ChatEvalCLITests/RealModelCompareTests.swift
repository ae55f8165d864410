import ChatEvalTestKit
import Foundation
import Testing

/// `compare` and `run --baseline` end to end on the real model, in a temporary repository of two
/// commits: the second lengthens the system prompt and makes a check fail. Ten repetitions per
/// recorded run: a check failing on every replay of one side is significant from there.
@Suite(.serialized, .tags(.realModel), .usesAllCores) struct RealModelCompareTests {
    let cli = CommandLineTests()

    /// A repository whose HEAD~1 passes every check and whose HEAD fails one.
    final class Fixture: ScratchRepository {
        let cli: CommandLineTests

        init(cli: CommandLineTests) async throws {
            self.cli = cli
            try super.init(prefix: "chateval-compare")
            try await git("init", "-q", "-b", "main")
            try write(".gitignore", "reports/\n")
            try write("chateval.yaml", "repetitions: 10\nthreads: 2\ncompare: {busy_threshold: off}\n")
            try write("suites/capitals.yaml", suite(system: "You are a concise assistant.", expected: "Paris"))
            try await commit("capitals suite")
            try write(
                "suites/capitals.yaml",
                suite(
                    system:
                        "You are a concise assistant. "
                        + "You answer questions about geography and history accurately, in one short sentence, without preamble.",
                    expected: "Zanzibar"))
            try await commit("longer system prompt; a check that fails")
        }

        func suite(system: String, expected: String) -> String {
            """
            name: capitals
            # A failing check is what compare is to find; the runs themselves must record, not fail.
            gates: {min_pass_rate: 0}
            defaults: {max_tokens: 8, system: "\(system)"}
            conversations:
              - id: france
                turns:
                  - user: What is the capital of France?
                    checks: [{type: icontains, value: \(expected)}]
                  - user: And of Italy?

            """
        }

        /// Runs chateval in the repository. Comparisons here keep every replay (`busy_threshold: off`,
        /// in the project file): they assert behaviour, not speed. Two threads, the machine's two
        /// cores, which this suite holds alone (`usesAllCores`); one thread, from when real-model
        /// suites ran beside the rest, made every replay about twice as long.
        func chateval(_ arguments: [String], environment: [String: String] = ["GITHUB_STEP_SUMMARY": ""]) async throws
            -> CommandLineTests.Outcome
        {
            try await cli.run(arguments, environment: environment.merging(["CI": "true"]) { first, _ in first }, in: root)
        }

        /// `chateval run --baseline …` (in `arguments`), its comparison also written as JSON; then
        /// the check every gate here makes (issue 48, item 2): `chateval compare` of the two result
        /// files it wrote gives its verdicts exactly (`GateRecheck`).
        func gate(_ arguments: [String], environment: [String: String] = ["GITHUB_STEP_SUMMARY": ""]) async throws
            -> CommandLineTests.Outcome
        {
            let json = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-gate-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: json) }
            let outcome = try await chateval(arguments + ["--output", json.path], environment: environment)
            try await expectCompareReproduces(gate: try Data(contentsOf: json))
            return outcome
        }

        /// `chateval compare BASE HEAD --format json` of the result files the gate's comparison
        /// names (by run id, in the reports folder) agrees with it on every verdict.
        func expectCompareReproduces(gate: Data) async throws {
            let document = try #require(try JSONSerialization.jsonObject(with: gate) as? [String: Any])
            let reports = root.appendingPathComponent("reports")
            let names = try FileManager.default.contentsOfDirectory(atPath: reports.path)
            func file(_ side: String) throws -> String {
                let id = try #require(((document[side] as? [String: Any])?["runs"] as? [String])?.first)
                let name = try #require(names.first { $0.hasSuffix("-\(id).json") }, "no result file of run \(id) in \(names)")
                return reports.appendingPathComponent(name).path
            }
            let compared = try await chateval(["compare", try file("base"), try file("head"), "--format", "json"])
            #expect([0, 1].contains(compared.status), "\(compared.stderr)")
            let differences = try GateRecheck.differences(gateJSON: gate, compareJSON: Data(compared.stdout.utf8))
            #expect(
                differences.isEmpty,
                "compare of the gate's files disagrees with the gate:\n\(differences.prefix(20).joined(separator: "\n"))")
        }

        /// Records a run of `revision` (checked out, then back to main) with a git note.
        func record(_ revision: String) async throws {
            try await git("checkout", "-q", revision)
            let outcome = try await chateval(["run", "--git-note"])
            try await git("checkout", "-q", "main")
            guard outcome.status == 0 else { throw Failure(description: "run of \(revision) exited \(outcome.status): \(outcome.stderr)") }
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    private func requireModel() throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
    }

    /// Issue 44: a model's peak memory depended on the model loaded before it. SmolLM2 run first
    /// of two models measured about 25 MiB above SmolLM2 alone (279.3 against 255 MiB), and
    /// `compare` of the lone run against that group member said REGRESSION peak-memory +9.7%.
    /// Each model's peak is now its own, above the process's resident memory just before it
    /// loaded: the two runs agree, and the comparison, noting the different process contexts, finds
    /// no regression.
    @Test func aModelsPeakMemoryIsItsOwnAloneOrBesideAnother() async throws {
        try requireModel()
        let gemma = try #require(ProcessInfo.processInfo.environment["CHATEVAL_GEMMA_MODEL"], "CHATEVAL_GEMMA_MODEL is not set")
        let smol = ProcessInfo.processInfo.environment["CHATEVAL_MODEL"]!
        let folder = try CommandLineTests.folder(
            [
                "s.yaml": """
                name: memory
                gates: {min_pass_rate: 0}
                defaults: {max_tokens: 4}
                conversations:
                  - {id: a, turns: [Name a colour.]}
                  - {id: b, turns: [Name a fruit.]}
                  - {id: c, turns: [Name a river.]}
                  - {id: d, turns: [Name a city.]}
                """,
                "chateval.yaml": "compare: {busy_threshold: off}\n",
            ], prefix: "chateval-memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let common = ["s.yaml", "--repeat", "3", "--threads", "1", "--ctx-size", "512"]
        let lone = try await cli.run(["run"] + common + ["--model", smol, "--reports", "lone"], environment: ["CI": "true"], in: folder)
        #expect(lone.status == 0, "\(lone.stderr)")
        let group = try await cli.run(
            ["run"] + common + [
                "--model", smol, "--model", gemma, "--chat-template", "embedded", "--chat-template", "gemma", "--reports", "group",
            ],
            environment: ["CI": "true"], in: folder)
        #expect(group.status == 0, "\(group.stderr)")
        func results(_ name: String) throws -> [URL] {
            try FileManager.default.contentsOfDirectory(at: folder.appendingPathComponent(name), includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
        }
        let loneFile = try #require(try results("lone").first)
        // The group member that ran SmolLM2 (model 1 of 2).
        let member = try #require(
            try results("group").first { (try? String(contentsOf: $0, encoding: .utf8))?.contains("\"index\" : 1") == true })
        func peaks(_ url: URL) throws -> [Double] {
            let text = try String(contentsOf: url, encoding: .utf8)
            return text.matches(of: #/"peak_resident_bytes" : (\d+)/#).compactMap { Double($0.output.1) }
        }
        let (alone, beside) = (try peaks(loneFile), try peaks(member))
        let a = try #require(alone.sorted().dropFirst(alone.count / 2).first),
            b = try #require(beside.sorted().dropFirst(beside.count / 2).first)
        // Within the default preset's 5% peak-memory threshold, where they differed by 9.7%. What is left
        // (about 3%, 2026-11-29) is what the process held before either load and each load touches
        // anyway (library code, the harness's pages): counted in one baseline and in the other's peak.
        #expect(abs(b - a) / a < 0.05, "median peak alone \(a / 1_048_576) MiB, beside another model \(b / 1_048_576) MiB")
        #expect(try String(contentsOf: member, encoding: .utf8).contains("\"peak_basis\" : \"above_load_baseline\""))

        // (Timings of two runs on a machine shared with the other tests may differ; memory is what is asked about.)
        let compared = try await cli.run(["compare", loneFile.path, member.path], environment: ["CI": "true"], in: folder)
        #expect(compared.status == 0 || compared.status == 1, "\(compared.stdout)\n\(compared.stderr)")
        let memory = compared.stdout.split(separator: "\n").filter { $0.contains("peak-memory") }
        #expect(!memory.isEmpty && memory.allSatisfy { !$0.lowercased().contains("regression") }, "\(compared.stdout)")
        #expect(compared.stdout.contains("memory    peak memory measured in different process contexts"), "\(compared.stdout)")
    }

    @Test func revisionsAreComparedFromRecordedRunsAndFromNotesAlone() async throws {
        try requireModel()
        let fixture = try await Fixture(cli: cli)
        try await fixture.record("HEAD~1")
        try await fixture.record("HEAD")

        let compared = try await fixture.chateval(["compare", "HEAD~1", "HEAD"])
        #expect(compared.status == 1, "\(compared.stderr)")
        #expect(compared.stdout.contains("REGRESSION"))
        #expect(compared.stdout.contains("Checks that pass significantly less often on head (1):"))
        #expect(compared.stdout.contains("capitals / france / turn 1 / check 1 icontains: base 10/10, head 0/10 passed"))
        #expect(compared.stdout.contains("expected \"Zanzibar\""))
        #expect(compared.stdout.contains("answer: "))
        #expect(compared.stdout.contains("reports/"))  // read from the result files
        // What the commit changed in the inputs is listed beside what moved.
        #expect(compared.stdout.contains("Inputs that differ (what the suites sent on head, against base):"), "\(compared.stdout)")
        #expect(compared.stdout.contains("capitals/france: system prompt"))
        #expect(compared.stdout.contains("capitals/france turn 1: checks") == false)  // same checks, another value

        // The reports folder gone, the same comparison works from git notes alone.
        try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("reports"))
        let fromNotes = try await fixture.chateval(["compare", "HEAD~1", "HEAD", "--format", "json"])
        #expect(fromNotes.status == 1, "\(fromNotes.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(fromNotes.stdout.utf8)) as? [String: Any])
        let base = try #require(json["base"] as? [String: Any])
        #expect((base["sources"] as? [String])?.first?.hasPrefix("notes:") == true)
        let quality = try #require(json["quality"] as? [String: Any])
        #expect((quality["regressions"] as? [[String: Any]])?.count == 1)

        // The same commit against itself: nothing changed.
        let same = try await fixture.chateval(["compare", "HEAD", "HEAD"])
        // Two readings of one recorded run: no run-to-run offset between them, so no run floor; every
        // change is exactly 0 and nothing is worse. Whether an interval is narrow enough to call a
        // metric unchanged depends on how much its replays spread on this machine (on a quiet CI
        // runner they called all nine unchanged, on a busy one some stay undecided): that is
        // asserted on built runs in RecordedRunSourcesTests, not here. What holds on any machine:
        #expect(same.status == 0, "\(same.stdout)\n\(same.stderr)")
        #expect(!same.stdout.contains("REGRESSION"), "\(same.stdout)")
        #expect(same.stdout.contains("runs      the same recorded run on both sides"), "\(same.stdout)")
        let timed = ["ttft ", "prefill-tps ", "decode-tps ", "total-time "]
        let rows = same.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { row in timed.contains { row.hasPrefix($0) } }
        // (A replay the busy-machine screen left out is left out of both sides alike: a metric with
        // none left is "not measured", never a change.)
        #expect(
            rows.count == timed.count && rows.allSatisfy { $0.contains("+0.0%") || $0.hasSuffix("not measured") },
            "\(same.stdout)")
        #expect(!same.stdout.contains("run-to-run spread"), "\(same.stdout)")
    }

    @Test func aRevisionWithoutARecordedRunIsAMissingBaseline() async throws {
        try requireModel()
        let fixture = try await Fixture(cli: cli)
        try await fixture.record("HEAD")
        let missing = try await fixture.chateval(["compare", "HEAD~1", "HEAD"])
        #expect(missing.status == 5)
        #expect(missing.stderr.contains("no complete run recorded for"))
        #expect(missing.stderr.contains("chateval run --baseline"))

        let unknown = try await fixture.chateval(["compare", "no-such-branch", "HEAD"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("'no-such-branch' is not a result file, a folder of results, or a revision"))
    }

    @Test func baseAndHeadInOneJob() async throws {
        try requireModel()
        let fixture = try await Fixture(cli: cli)
        let summary = fixture.root.appendingPathComponent("reports/summary.md")
        // In rounds: repetitions are added until the failing check is significant.
        let outcome = try await fixture.gate(
            ["run", "--baseline", "HEAD~1", "--max-repeat", "12", "--format", "markdown", "--output", "reports/gate.xml"],
            environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("baseline  "))
        #expect(outcome.stdout.contains("stopped at a confirmed regression"))
        #expect(outcome.stdout.contains("capitals / france / turn 1 / check 1 icontains"))
        // The verdict comes first, the head's run after it.
        let verdict = try #require(outcome.stdout.range(of: "REGRESSION")), run = try #require(outcome.stdout.range(of: "the head's run"))
        #expect(verdict.lowerBound < run.lowerBound)
        // Interleaved: base and head alternate, and which goes first alternates too.
        let order = outcome.stderr.split(separator: "\n").compactMap { line -> String? in
            line.contains(" base capitals/") ? "base" : line.contains(" head capitals/") ? "head" : nil
        }
        #expect(Array(order.prefix(4)) == ["head", "base", "base", "head"])
        #expect(outcome.stdout.contains("look      look 1 at 2 repetitions per side"))
        // The reports: the comparison, then the head's run, in the job summary and the JUnit file.
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        #expect(markdown.hasPrefix("## ChatEval comparison") && markdown.contains("## ChatEval run"))
        let junit = try String(contentsOf: fixture.root.appendingPathComponent("reports/gate.xml"), encoding: .utf8)
        #expect(junit.contains("name=\"capitals\"") && junit.contains("name=\"capitals (head vs base)\""))
        #expect(junit.contains("<failure type=\"check regression\""))
        // Both runs recorded, each knowing the other; the working tree untouched.
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.root.appendingPathComponent("reports").path).filter {
            $0.hasSuffix(".json")
        }
        #expect(files.count == 2)
        let roles = try files.map { name -> String in
            let record = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.root.appendingPathComponent("reports/\(name)")))
                    as? [String: Any])
            return record["role"] as? String ?? ""
        }
        #expect(Set(roles) == ["baseline", "head"])
        #expect(try await fixture.git("status", "--porcelain") == "")
    }

    /// `calibrate` prints every rate with its 95% Clopper–Pearson interval (two comparisons here:
    /// whatever they find, the interval says how little two can tell), and runs 110 by default.
    @Test func calibratePrintsEachRateWithItsInterval() async throws {
        try requireModel()
        let fixture = try await Fixture(cli: cli)
        let help = try await fixture.chateval(["calibrate", "--help"])
        #expect(help.stdout.contains("(default: 110)"), "\(help.stdout)")
        let outcome = try await fixture.chateval(["calibrate", "--comparisons", "2", "--repeat", "3"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // k of 2 false alarms: 0.0% [0.0%, 84.2%], 50.0% [1.3%, 98.7%] or 100.0% [15.8%, 100.0%].
        let intervals = [
            "0/2 A/A false alarms, 0.0% [0.0%, 84.2%]", "1/2 A/A false alarms, 50.0% [1.3%, 98.7%]",
            "2/2 A/A false alarms, 100.0% [15.8%, 100.0%]",
        ]
        #expect(intervals.contains { outcome.stdout.contains($0) }, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("comparisons decided ("), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("/2 0.0% [0.0%, 84.2%]") || outcome.stdout.contains("/2 50.0%"), "\(outcome.stdout)")
    }

    /// Two fixed repetitions cannot tell a failing check from chance by counting (2/2 against
    /// 0/2: said so), but greedy answers identical on every replay of each side make it a certain
    /// change: the exact ledger decides it, and the longer prompt's evaluated tokens, at once.
    @Test func twoRepetitionsAreTooFewToCountButTheExactLedgerDecides() async throws {
        try requireModel()
        let fixture = try await Fixture(cli: cli)
        let outcome = try await fixture.gate(["run", "--baseline", "HEAD~1", "--repeat", "2"])
        #expect(outcome.status == 1, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.stdout.contains("REGRESSION: 2 exact ledger changes"))
        #expect(outcome.stdout.contains("exact answers on both sides, a certain change"))
        #expect(outcome.stdout.contains("Changed, but too few replays to tell a change from chance"))
        #expect(outcome.stdout.contains("base 2/2, head 0/2 passed"))
        #expect(outcome.stdout.contains("decided exactly above"))
        #expect(outcome.stdout.contains("fixed by --repeat"))
    }

    /// The head's commit says what it changes on purpose (`ChatEval-Expect` trailers): the exact
    /// regressions it names are accepted, exit 0; one it does not name still fails, exit 1; and an
    /// expectation nothing matched is reported as not observed.
    @Test func changesTheHeadsCommitExpectsAreAcceptedAndOthersStillFail() async throws {
        try requireModel()
        let fixture = try await Fixture(cli: cli)
        try await fixture.git(
            "commit", "-q", "--amend", "-m",
            "longer system prompt; a check that fails\n\nChatEval-Expect: capitals evaluated-tokens worse\n"
                + "ChatEval-Expect: capitals checks worse\nChatEval-Expect: capitals decode-tps better\n"
                + "ChatEval-Expect: capitals tfft worse"
        )
        let accepted = try await fixture.gate(["run", "--baseline", "HEAD~1", "--repeat", "2"])
        #expect(accepted.status == 0, "\(accepted.stdout)\n\(accepted.stderr)")
        #expect(accepted.stdout.contains("expected  "), "\(accepted.stdout)")
        #expect(accepted.stdout.contains("ACCEPTED capitals/france turn 1"), "\(accepted.stdout)")
        #expect(accepted.stdout.contains("ChatEval-Expect: capitals evaluated-tokens worse — observed"))
        // Two repetitions cannot decide decode-tps: not decided yet, rather than not observed.
        #expect(accepted.stdout.contains("ChatEval-Expect: capitals decode-tps better — not decided yet (underpowered at this look)"))
        // A trailer that does not read is named, never an error.
        #expect(accepted.stderr.contains("'tfft' is not a metric or ledger quantity; did you mean 'ttft'?"), "\(accepted.stderr)")

        try await fixture.git(
            "commit", "-q", "--amend", "-m", "longer system prompt; a check that fails\n\nChatEval-Expect: capitals checks worse")
        let unexpected = try await fixture.gate(["run", "--baseline", "HEAD~1", "--repeat", "2"])
        #expect(unexpected.status == 1, "\(unexpected.stdout)\n\(unexpected.stderr)")
        #expect(unexpected.stdout.contains("REGRESSION: 1 exact ledger change"), "\(unexpected.stdout)")
        #expect(unexpected.stdout.contains("evaluated tokens grew"))
    }

    /// Issue 48, item 3: the first line names every reason the job fails. Identical sides, no
    /// regression — but the head's own suite gate fails (its check expects Zanzibar): before, the
    /// first line said "NOT DECIDED: no regression shown" and the exit 1 came from a gate named
    /// some 60 lines further down.
    @Test func theFirstLineNamesTheSuiteGateThatFailsTheJob() async throws {
        try requireModel()
        let fixture = try await Fixture(cli: cli)
        let suite = try String(contentsOf: fixture.root.appendingPathComponent("suites/capitals.yaml"), encoding: .utf8)
        try fixture.write("suites/capitals.yaml", suite.replacingOccurrences(of: "min_pass_rate: 0", with: "min_pass_rate: 1"))
        try await fixture.commit("a gate the head fails")
        let outcome = try await fixture.chateval(["run", "--baseline", "HEAD", "--repeat", "1"])
        #expect(outcome.status == 1, "\(outcome.stdout)\n\(outcome.stderr)")
        // The comparison's first line (after the run's progress lines): its verdict.
        let verdicts = ["REGRESSION", "No regression", "NOT DECIDED", "ACCEPTED"]
        let first = outcome.stdout.split(separator: "\n").first { line in verdicts.contains { line.hasPrefix($0) } } ?? ""
        #expect(first.hasPrefix("NOT DECIDED"), "\(outcome.stdout)")
        #expect(first.contains("The head's suite gate failed: capitals: min_pass_rate ≥ 1"), "\(first)")
        // The same line in the job summary.
        let summary = fixture.root.appendingPathComponent("summary.md")
        let markdown = try await fixture.chateval(
            ["run", "--baseline", "HEAD", "--repeat", "1", "--format", "markdown"], environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(markdown.status == 1)
        let written = (try? String(contentsOf: summary, encoding: .utf8)) ?? markdown.stdout
        #expect(written.contains("❌ **") && written.contains("suite gate failed: capitals: min\\_pass\\_rate"), "\(written)")
    }

    @Test func sidesMeasuredDifferentlyAreNotGated() async throws {
        try requireModel()
        let fixture = try await Fixture(cli: cli)
        let one = try await fixture.chateval(["run", "--threads", "1", "--repeat", "1", "--reports", "a"])
        let other = try await fixture.chateval(["run", "--threads", "2", "--repeat", "1", "--reports", "b"])
        try #require(one.status == 1 && other.status == 1 || one.status == 0 && other.status == 0, "\(one.stderr)\(other.stderr)")
        let mismatch = try await fixture.chateval(["compare", "a", "b"])
        #expect(mismatch.status == 2)
        #expect(mismatch.stderr.contains("not measured alike: threads (1 → 2)"))
        #expect(try await fixture.chateval(["compare", "a", "b", "--allow-mismatch"]).status != 2)
    }
}
