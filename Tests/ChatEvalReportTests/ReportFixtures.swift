import ChatEvalCompare
import ChatEvalCore
import ChatEvalHistory
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// Runs, comparisons and histories for the report tests, with the text a hostile or broken model
/// could produce, and the external checkers `make test` installs (scripts/setup.sh report-tools).
enum ReportFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// An answer no report may obey: markup that would end the SVG, run a script, break a table,
    /// an XML-illegal control character and a terminal escape.
    static let hostileAnswer = "Sure </svg><script>alert('x')</script> | a | b |\n<img src=x onerror=alert(1)> \u{1B}[2J \u{0}&amp; ]]>"

    /// A run of two suites: passing and failing checks, a turn the runtime could not answer
    /// (and the one skipped after it), a failed gate, the hostile answer in one turn.
    static func run(model: String = "synthetic.gguf", seed: UInt64 = 1) -> RunRecord {
        var synthetic = SyntheticRuns(seed: seed)
        var record = synthetic.record(
            runId: "run-\(seed)", commit: SyntheticRuns.commitID(42), suites: ["smoke", "math"], conversations: 2, turns: 3,
            failing: { conversation, turn in conversation == 1 && turn == 0 },
            answer: { conversation, turn in conversation == 0 && turn == 1 ? hostileAnswer : "Answer \(turn + 1)." },
            user: { _, turn in turn == 2 ? "Tell me about <b>bold</b> & `code` | pipes" : "Question \(turn + 1)?" })
        record.runtime.model.path = "/models/\(model)"
        // The math suite's second conversation: turn 2 fails in the runtime, turn 3 is skipped.
        var turns = record.suites[1].conversations[1].turns
        turns[1] = TurnRecord(
            ReplayedTurn(
                index: 1, user: "Long question", messagesSent: 3, status: .failed,
                failure: RuntimeFailure(.contextOverflow, "the history needs 5000 tokens, the context holds 4096")))
        turns[2] = TurnRecord(ReplayedTurn(index: 2, user: "Next", messagesSent: 0, status: .skipped, skipReason: "turn 2 failed"))
        record.suites[1].conversations[1].turns = turns
        record.suites[1].gates = [GateOutcome(gate: "min_pass_rate", passed: false, expected: "≥ 0.9", found: "0.6 (3 of 5 checks)")]
        record.gatesPassed = false
        return record
    }

    /// `run()` with a conversation-level check failed on the smoke suite's first conversation.
    static func runWithConversationCheckFailed() -> RunRecord {
        var record = run()
        record.suites[0].conversations[0].checks = [
            Verdict(check: "length", passed: false, detail: "expected at most 10 words over the conversation, found 31")
        ]
        return record
    }

    /// A run with `turns` turns in one suite, each answer `answerLength` characters.
    static func hugeRun(turns: Int, answerLength: Int) -> RunRecord {
        var synthetic = SyntheticRuns(seed: 9)
        let answer = String(repeating: "All work and no play makes a long answer. ", count: answerLength / 42 + 1).prefix(answerLength)
        return synthetic.record(
            runId: "huge", commit: SyntheticRuns.commitID(1), conversations: turns / 10, turns: 10,
            failing: { _, turn in turn == 3 }, answer: { _, _ in String(answer) })
    }

    /// Ten runs of each side pooled (one replay of each conversation each): head 30% slower, and
    /// its first check failing on every replay where base's always passed.
    static func comparison() -> Comparison {
        var synthetic = SyntheticRuns(seed: 5, noise: 0.02)
        let base = (1...10).map {
            synthetic.record(runId: "base\($0)", commit: SyntheticRuns.commitID(1), conversations: 5, turns: 4, ttft: 0.2)
        }
        let head = (1...10).map {
            synthetic.record(
                runId: "head\($0)", commit: SyntheticRuns.commitID(2), conversations: 5, turns: 4, ttft: 0.26,
                failing: { conversation, turn in conversation == 0 && turn == 0 },
                answer: { conversation, turn in conversation == 0 && turn == 0 ? hostileAnswer : "Answer." })
        }
        return RunComparator.compare(
            base: ComparedRuns(runs: base, sources: ["base.json"]), head: ComparedRuns(runs: head, sources: ["head.json"]),
            settings: .default)
    }

    /// 60 commits, a 20% TTFT step at commit 40, a subject holding markup.
    static func history() -> History {
        let commits = (0..<60).reversed().map { number in
            CommitSummary(
                id: SyntheticRuns.commitID(number), shortId: String(SyntheticRuns.commitID(number).prefix(7)),
                subject: number == 40 ? "Bump llama.cpp </svg><script>x</script>" : "Change \(number)",
                time: Date(timeIntervalSince1970: Double(number)))
        }
        var synthetic = SyntheticRuns(seed: 4)
        let runs = (0..<60).filter { $0 % 7 != 3 }.map { number in
            RunDigest(
                synthetic.record(runId: "r\(number)", commit: SyntheticRuns.commitID(number), ttft: number >= 40 ? 0.24 : 0.2),
                source: "f\(number)")
        }
        return HistoryBuilder.build(commits: commits, runs: runs, metrics: HistoryMetric.defaults)
    }

    static func temporaryFile(_ name: String, _ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-report-\(UUID().uuidString)-\(name)")
        try Data(text.utf8).write(to: url)
        return url
    }

    // MARK: The checkers

    static var cacheFolder: String {
        ProcessInfo.processInfo.environment["CHATEVAL_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/chateval"
    }

    /// A checker program; a missing one fails the test with how to install it (never a skip).
    static func tool(_ path: String) throws -> URL {
        try #require(
            FileManager.default.isExecutableFile(atPath: path),
            "\(path) is missing: run `bash scripts/setup.sh report-tools` (make test does)")
        return URL(fileURLWithPath: path)
    }

    static func run(_ tool: URL, _ arguments: [String]) async throws -> ProcessRunner.Outcome {
        try await ProcessRunner.run(tool, arguments, in: packageRoot)
    }
}
