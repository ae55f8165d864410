import ChatEvalTestKit
import Foundation
import Testing

/// `ChatEval-Expect` trailers as CI meets them, on the real model: `run --baseline main` from
/// the merge commit `actions/checkout` checks out for a pull request (`git merge --no-ff` of the
/// branch into main's tip, main its first parent). Before, trailers were read from first
/// parents only, so a pull request's own commits were never read (exit 1 with REGRESSION), and
/// where they were read an unbounded trailer accepted a later commit's change too.
@Suite(.serialized, .tags(.realModel), .usesAllCores) struct RealModelTrailersTests {
    let cli = CommandLineTests()

    /// main: one suite of one one-turn conversation (no checks, no reuse: only the evaluated
    /// tokens can fail a run at one repetition). Branches from main change its system prompt.
    final class PullRequests: ScratchRepository {
        let cli: CommandLineTests
        static let system = "You are a concise assistant."

        init(cli: CommandLineTests) async throws {
            self.cli = cli
            try super.init(prefix: "chateval-trailers")
            try await git("init", "-q", "-b", "main")
            try write(".gitignore", "reports/\n")
            try write("chateval.yaml", "threads: 2\ncompare: {busy_threshold: off}\n")
            try write("suites/capitals.yaml", Self.suite(system: Self.system))
            try await commit("capitals suite")
        }

        static func suite(system: String) -> String {
            """
            name: capitals
            defaults: {max_tokens: 8, system: "\(system)"}
            conversations:
              - id: france
                turns:
                  - user: What is the capital of France?

            """
        }

        /// A branch `name` from main whose commits each set the system prompt; returns their short ids.
        @discardableResult
        func branch(_ name: String, _ changes: [(system: String, message: String)]) async throws -> [String] {
            try await git("checkout", "-q", "-B", name, "main")
            var ids: [String] = []
            for change in changes {
                try write("suites/capitals.yaml", Self.suite(system: change.system))
                try await commit(change.message)
                ids.append(try await git("rev-parse", "--short", "HEAD"))
            }
            return ids
        }

        /// What `actions/checkout` checks out on `pull_request`: `name` merged into main's tip,
        /// detached, main the merge's first parent.
        func merge(_ name: String) async throws {
            try await git("checkout", "-q", "--detach", "main")
            try await git("merge", "-q", "--no-ff", "-m", "Merge \(name) into main", name)
        }

        /// `chateval run --baseline main --repeat 1` from the merge (every replay kept: `make
        /// test` runs tests side by side).
        func gate() async throws -> CommandLineTests.Outcome {
            try await cli.run(
                ["run", "--baseline", "main", "--repeat", "1"], environment: ["GITHUB_STEP_SUMMARY": "", "CI": "true"], in: root)
        }
    }

    static let brief = PullRequests.system + " Be brief."
    static let longer =
        brief + " You answer questions about geography and history accurately, in one short sentence, without preamble, "
        + "and you never repeat the question or add a greeting."

    private func requireModel() throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
    }

    /// A pull request of one commit whose trailer has no bound: read through the merge commit
    /// and accepted, exit 0. A later commit changing the prompt again without a trailer: the
    /// trailer cannot tell its change from the other's, is not applied, and the run fails, exit 1.
    @Test func aPullRequestsMergeReadsItsCommitsTrailersAndALaterChangeStillFails() async throws {
        try requireModel()
        let repository = try await PullRequests(cli: cli)
        let trailer = "Be brief\n\nChatEval-Expect: capitals evaluated-tokens worse"
        try await repository.branch("one", [(Self.brief, trailer)])
        try await repository.merge("one")
        let one = try await repository.gate()
        #expect(one.status == 0, "\(one.stdout)\n\(one.stderr)")
        #expect(one.stdout.contains("ACCEPTED capitals/france turn 1"), "\(one.stdout)")
        #expect(one.stdout.contains("ChatEval-Expect: capitals evaluated-tokens worse — observed"), "\(one.stdout)")

        let ids = try await repository.branch("two", [(Self.brief, trailer), (Self.longer, "Say more")])
        try await repository.merge("two")
        let two = try await repository.gate()
        #expect(two.status == 1, "\(two.stdout)\n\(two.stderr)")
        #expect(two.stdout.contains("REGRESSION: 1 exact ledger change"), "\(two.stdout)")
        #expect(
            two.stdout.contains(
                "NOT APPLIED: 1 other commit (\(ids[1])) changes the suites' inputs; "
                    + "give it a bound (`+3`) so only its own change is accepted"), "\(two.stdout)")
        #expect(two.stderr.contains("ChatEval-Expect on \(ids[0]) is not applied"), "\(two.stderr)")
    }

    /// The same with a bound: the pull request's own change within it is accepted, exit 0; a
    /// later commit's change past it fails, exit 1, saying by how much.
    @Test func aBoundedTrailerAcceptsItsOwnChangeAndNotALaterOne() async throws {
        try requireModel()
        let repository = try await PullRequests(cli: cli)
        let trailer = "Be brief\n\nChatEval-Expect: capitals evaluated-tokens worse +10"
        try await repository.branch("bounded", [(Self.brief, trailer)])
        try await repository.merge("bounded")
        let within = try await repository.gate()
        #expect(within.status == 0, "\(within.stdout)\n\(within.stderr)")
        #expect(within.stdout.contains("ChatEval-Expect: capitals evaluated-tokens worse +10 — observed"), "\(within.stdout)")

        try await repository.branch("past", [(Self.brief, trailer), (Self.longer, "Say more")])
        try await repository.merge("past")
        let past = try await repository.gate()
        #expect(past.status == 1, "\(past.stdout)\n\(past.stderr)")
        #expect(past.stdout.contains("REGRESSION: 1 exact ledger change"), "\(past.stdout)")
        #expect(past.stdout.contains("tokens beyond the bound +10 of the trailers that cover it"), "\(past.stdout)")
    }
}
