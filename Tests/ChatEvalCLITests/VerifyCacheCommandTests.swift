import ChatEvalTestKit
import Foundation
import Testing

/// `chateval run --verify-cache` on the real model: a faithful cache passes; the test hook that
/// drops cached entries behind the accounting's back fails, naming the turn and the token.
@Suite(.serialized, .tags(.realModel), .usesAllCores) struct VerifyCacheCommandTests {
    let cli = CommandLineTests()

    private func suiteFile() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString).yaml")
        try """
        name: verify
        defaults: {max_tokens: 32, system: You are a concise assistant. Answer in one short sentence.}
        conversations:
          - id: capitals
            turns: [What is the capital of France?, And of Italy?]
        """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func aFaithfulCachePassesAndABrokenOneFailsNamingTheTurn() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let suite = try suiteFile()
        defer { try? FileManager.default.removeItem(at: suite) }
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("verify-out-\(UUID().uuidString)")
        let arguments = ["run", suite.path, "--verify-cache", "--no-project", "--reports", reports.path]

        let passed = try await cli.run(arguments, environment: ["CI": "true"])
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(passed.stdout.contains("✓ PASS cache verified: 1 conversation, 2 turns identical"))
        #expect(!FileManager.default.fileExists(atPath: reports.path), "verification records nothing")

        let broken = try await cli.run(arguments, environment: ["CI": "true", "CHATEVAL_TEST_CACHE_FAULT": "drop-reused-entries"])
        #expect(broken.status == 1, "\(broken.stderr)")
        #expect(broken.stderr.contains("cache verification failed"))
        #expect(broken.stderr.contains("verify/capitals turn 2: the session cache's answer differs from cold at token"))

        let unknown = try await cli.run(arguments, environment: ["CI": "true", "CHATEVAL_TEST_CACHE_FAULT": "melt"])
        #expect(unknown.status == 2 && unknown.stderr.contains("not a cache fault (known: skip-window-check, drop-reused-entries)"))
    }
}
