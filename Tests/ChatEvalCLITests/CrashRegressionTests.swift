import ChatEvalTestKit
import Foundation
import Testing

/// Inputs that crashed ChatEval (a Swift trap or a stack overflow), reached as a user reaches
/// them: a suite, an answers file, the command line. Each must now be a clear message or a
/// verdict, never "Fatal error".
@Suite struct CrashRegressionTests {
    let cli = CommandLineTests()

    private func write(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return directory
    }

    private let answered = """
        {"conversation": "c", "turn": 1, "answer": "Paris is the capital.", "metrics": {"prompt_tokens": 40, "reused_tokens": 0, \
        "generated_tokens": 5, "time_to_first_token": 0.2, "prefill_time": 0.1, "decode_time": 0.2, "total_time": 0.4, \
        "inter_token_latencies": [0.05, 0.05, 0.05, 0.05], "stop_reason": "eog"}}
        """

    /// `{metric: ttft, max: 1e19}` validated, then trapped when the gate was reported.
    @Test func aHugeGateBoundIsReportedNotTrapped() async throws {
        let directory = try write([
            "s.yaml":
                "name: s\ngates: {metrics: [{metric: ttft, max: 1e19}, {metric: decode-tps, min: 1e300}]}\n"
                + "conversations: [{id: c, turns: [Hi]}]\n",
            "a.jsonl": answered,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["grade", "s.yaml", "--answers", "a.jsonl"], in: directory)
        #expect(outcome.status == 1, "\(outcome.stderr)")  // the decode-tps gate fails, as it should
        #expect(outcome.stdout.contains("gate ttft median ≤ 10000000000000000000"), "\(outcome.stdout)")
        #expect(!outcome.stderr.contains("Fatal error"))
    }

    /// A check limit far beyond any count (it reached an `Int(...)` conversion): a located error.
    @Test func aHugeCheckLimitIsALocatedError() async throws {
        let directory = try write([
            "s.yaml": "name: s\nconversations: [{id: c, turns: [{user: Hi, checks: [{type: generated-tokens, max: 1e19}]}]}]\n",
            "a.jsonl": answered,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["grade", "s.yaml", "--answers", "a.jsonl"], in: directory)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("s.yaml:2:"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("argument 'max'"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("Fatal error"))
    }

    /// Numbers that reach llama.cpp's 32-bit parameters are refused where they enter.
    @Test(arguments: [
        ("top_k: 10000000000", "top_k must be at most 1048576, found 10000000000"),
        ("max_tokens: 1e12", "max_tokens must be at most 1048576, found 1000000000000"),
        ("seed: 1e10", "seed must be below 2^32, found 10000000000"),
        ("max_messages: 0x10", "max_messages must be a whole number, found '0x10'"),
    ])
    func hugeSettingsAreLocated(_ setting: String, _ message: String) async throws {
        let directory = try write(["s.yaml": "name: s\ndefaults: {\(setting)}\nconversations: [{id: c, turns: [Hi]}]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["validate", "s.yaml"], in: directory)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("s.yaml:2:"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test(arguments: [
        (["--ctx-size", "99999999999"], "--ctx-size must be at least 16 and at most 4194304"),
        (["--batch-size", "4294967296"], "--batch-size must be at least 1 and at most 4194304"),
        (["--threads", "1000"], "--threads 1000: this machine has"),
        (["--repeat", "0"], "--repeat must be at least 1"),
    ])
    func hugeOptionsAreUsageErrors(_ option: [String], _ message: String) async throws {
        let outcome = try await cli.run(["run", "suites/smoke.yaml"] + option)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    /// A megabyte-long unknown check type: refused, with no suggestion computed over it.
    @Test func aMegabyteUnknownCheckTypeIsRefused() async throws {
        let name = String(repeating: "x", count: 1 << 20)
        let directory = try write(["s.yaml": "name: s\nconversations: [{id: c, turns: [{user: Hi, checks: [{type: \(name)}]}]}]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await cli.run(["validate", "s.yaml"], in: directory)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("unknown check type"))
        #expect(!outcome.stderr.contains("did you mean"))
    }
}
