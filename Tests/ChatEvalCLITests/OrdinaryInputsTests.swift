import ChatEvalTestKit
import Foundation
import Synchronization
import Testing

/// Ordinary inputs that exhausted a resource or lost measured work (issue 47), each reached
/// through the command line where it was found, and each failing before its fix.
@Suite(.timeLimit(.minutes(3))) struct OrdinaryInputsTests {
    let cli = CommandLineTests()

    /// A suite of one conversation of `turns` turns, each with a check an echo cannot pass.
    static func longConversation(turns: Int) -> String {
        "name: long\ndefaults: {system: You answer briefly.}\nconversations:\n  - id: c\n    turns:\n"
            + (1...turns).map { "      - {user: \"Turn \($0): name a sea creature.\", checks: [{icontains: whale}]}\n" }.joined()
    }

    /// `validate` on one 200-turn conversation: the echo lint doubled its transcript every turn
    /// (28 turns passed 12 GB in 42 s; 200 would never end). Watched from outside: killed past
    /// 1 GB or 20 s, and held to 100 MB and 1 s of CPU.
    @Test func validatingALongConversationIsLinear() async throws {
        let directory = try CommandLineTests.folder(["long.yaml": Self.longConversation(turns: 200)], prefix: "long-validate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let watched = try await ChildWatch.run(
            CommandLineTests.binary, ["validate", "long.yaml", "--no-project"], in: directory, killAbove: 1 << 30, after: 20)
        #expect(!watched.killed, "killed at \(watched.peakBytes >> 20) MiB after \(watched.seconds) s")
        #expect(watched.outcome.status == 0, "\(watched.outcome.stderr)")
        #expect(watched.peakBytes <= 100 << 20, "peak \(watched.peakBytes >> 20) MiB")
        #expect(watched.cpuSeconds <= 1, "\(watched.cpuSeconds) s of CPU")
    }

    /// A server that says it served 50 prompt tokens from its cache on a prompt of 20: the run
    /// exited 0, and its result file and git note were then refused by every reader (`report`
    /// exit 2, `compare` exit 5, `history` skipped it). Now the count is clamped, the
    /// contradiction recorded and said, and every reader reads both runs back.
    @Test func aServerWhoseFiguresContradictThemselvesLeavesARunEveryReaderReads() async throws {
        let repository = try ScratchRepository(prefix: "contradicting-usage")
        try repository.write("suites/s.yaml", "name: s\nconversations:\n  - {id: c, turns: [one, two]}\n")
        try repository.write(".gitignore", "reports-out/\n")
        try await repository.git("init", "-q", "-b", "main")
        try await repository.commit("a suite")
        let reports = repository.root.appendingPathComponent("reports-out").path
        let hostile = FakeChatServer.Reply.events(FakeChatServer.llamaServerEvents(["fine"], promptTokens: 20, cached: 50))
        try await FakeChatServer.run(replies: Array(repeating: hostile, count: 4)) { server in
            for _ in 1...2 {
                let run = try await cli.run(
                    [
                        "run", "suites/s.yaml", "--no-project", "--runtime", "openai", "--base-url", server.baseURL, "--model-name", "m",
                        "--reports", reports, "--git-note",
                    ], environment: ["CI": "true"], in: repository.root)
                #expect(run.status == 0, "\(run.stderr)")
                #expect(run.stderr.contains("reported 50 prompt tokens served from its cache, more than the 20 tokens"), "\(run.stderr)")
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: reports).filter { $0.hasSuffix(".json") }.sorted()
        try #require(files.count == 2)
        let text = try String(contentsOfFile: reports + "/" + files[0], encoding: .utf8)
        #expect(text.contains("\"reused_tokens\" : 20") && !text.contains("\"reused_tokens\" : 50"), "clamped to the prompt")
        #expect(text.contains("\"contradictions\" : ["), "the contradiction is recorded")

        let report = try await cli.run(["report", reports + "/" + files[0], "--no-project"], in: repository.root)
        #expect(report.status == 0, "\(report.stderr)")
        let compare = try await cli.run(
            ["compare", reports + "/" + files[0], reports + "/" + files[1], "--no-project"], in: repository.root)
        #expect(compare.status == 0, "\(compare.stdout)\(compare.stderr)")
        let history = try await cli.run(
            ["history", "--repo", repository.root.path, "--reports", reports, "--no-project", "--format", "json"], in: repository.root)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(!history.stderr.contains("trust"), "no run or note line is skipped: \(history.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        let points = (json["series"] as? [[String: Any]])?.flatMap { ($0["points"] as? [[String: Any]]) ?? [] } ?? []
        #expect(!points.isEmpty, "history reads the runs: \(history.stdout.prefix(400))")
    }

    // MARK: Memory per stream

    /// `--concurrency 1024` (the most allowed) against a server whose every stream sends one
    /// endless event: each stream held up to 16 MiB whatever the concurrency (4.2 GB at 256,
    /// about 17 GB at 1024). Now the streams share 1 GiB: each stops at its share of the event
    /// bound, and the process stays under 1 GiB. Killed past 1.5 GiB.
    @Test(.timeLimit(.minutes(5))) func theMostConcurrencyAllowedFitsInOneGibibyte() async throws {
        let streams = 1024
        let suite =
            "name: load\ndefaults: {max_tokens: 16}\nconversations:\n" + (1...streams).map { "  - {id: c\($0), turns: [Hi]}\n" }.joined()
        let directory = try CommandLineTests.folder(["load.yaml": suite], prefix: "concurrency")
        defer { try? FileManager.default.removeItem(at: directory) }
        let role = #"{"choices":[{"index":0,"delta":{"role":"assistant"}}],"object":"chat.completion.chunk"}"#
        let endless = FakeChatServer.Reply.script([
            .text("data: \(role)\n\n"),
            .forever(String(repeating: "data: " + String(repeating: "x", count: 250) + "\n", count: 64), gap: .zero),
        ])
        try await FakeChatServer.run(replies: Array(repeating: endless, count: streams)) { server in
            let watched = try await ChildWatch.run(
                CommandLineTests.binary,
                [
                    "run", "load.yaml", "--no-project", "--runtime", "openai", "--base-url", server.baseURL, "--model-name", "m",
                    "--reports", "out", "--retries", "0", "--concurrency", String(streams), "--warmup", "0",
                ], environment: ["CI": "true"], in: directory, killAbove: 3 << 29, after: 240)
            #expect(!watched.killed, "killed at \(watched.peakBytes >> 20) MiB after \(Int(watched.seconds)) s")
            #expect(watched.peakBytes <= 1 << 30, "peak \(watched.peakBytes >> 20) MiB")
            #expect(watched.outcome.status == 1, "every turn fails, typed: \(watched.outcome.stderr.suffix(2000))")
            let result = try #require(
                try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path).first {
                    $0.hasSuffix(".json")
                })
            let text = try String(contentsOf: directory.appendingPathComponent("out/\(result)"), encoding: .utf8)
            #expect(text.contains("is over 64 KiB (data: lines with no blank line to end it)"), "each stream's share of the bound")
            #expect(text.contains("(the bound of one stream of 1 GiB shared by 1024 streams"))
        }
    }

    // MARK: Secrets redacted before every cut and every encoding

    /// A served run of one turn in a fresh folder: the server's `reply`, `arguments` added; what
    /// it printed and every file it wrote under its reports folder, and the server's requests.
    private func servedRun(
        reply: FakeChatServer.Reply, check: String = "{icontains: zebra}", baseURL: (String) -> String = { $0 },
        arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> (written: [String: String], requests: [FakeChatServer.Request]) {
        let directory = try CommandLineTests.folder(
            ["s.yaml": "name: s\nconversations:\n  - id: c\n    turns:\n      - {user: Hi, checks: [\(check)]}\n"], prefix: "secrets")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await FakeChatServer.run(replies: [reply]) { server in
            let outcome = try await cli.run(
                ["run", "s.yaml", "--no-project", "--runtime", "openai", "--base-url", baseURL(server.baseURL), "--model-name", "m"]
                    + ["--reports", "out", "--retries", "0"] + arguments, environment: environment.merging(["CI": "true"]) { $1 },
                in: directory)
            #expect(outcome.status == 1, "the check or the turn fails: \(outcome.stderr)")
            var written = ["stdout": outcome.stdout, "stderr": outcome.stderr]
            let out = directory.appendingPathComponent("out")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [] where !name.hasPrefix(".") {
                written[name] = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
                let report = try await cli.run(["report", out.appendingPathComponent(name).path, "--format", "markdown"], in: directory)
                if name.hasSuffix(".json") { written["markdown report of \(name).md"] = report.stdout + report.stderr }
            }
            return (written, await server.requests)
        }
    }

    /// The names of the texts that hold a piece of `secret` of `length` characters or more.
    private func leaks(of secret: String, length: Int = 10, in written: [String: String]) -> [String] {
        let characters = Array(secret)
        let pieces = (0...(characters.count - length)).map { String(characters[$0..<($0 + length)]) }
        return written.filter { _, text in pieces.contains(where: text.contains) }.map(\.key).sorted()
    }

    /// A key the model's answer holds, 51 characters in: the check's 80-character excerpt of the
    /// answer cut it and wrote its first 28 characters, which no longer matched the key.
    @Test func aKeyCutByACheckExcerptIsRedactedWhole() async throws {
        let key = "sk-proj-" + String(repeating: "Q7x", count: 12) + "Zw"
        try #require(key.count == 46)
        let answer = String(repeating: "a", count: 51) + key + " is what you sent."
        let (written, _) = try await servedRun(
            reply: .events(FakeChatServer.llamaServerEvents([answer])), arguments: ["--api-key-env", "ORDINARY_TEST_KEY"],
            environment: ["ORDINARY_TEST_KEY": key])
        #expect(leaks(of: key, in: written).isEmpty, "a piece of the key is written in \(leaks(of: key, in: written))")
        let result = try #require(written.first { $0.key.hasSuffix(".json") }?.value)
        #expect(result.contains("Answer: \\\"" + String(repeating: "a", count: 51) + "[redacted]…"), "\(result)")
    }

    /// `--base-url http://alice:PASSWORD@host/v1`: libcurl sends the pair as HTTP Basic
    /// authentication, and a server that echoed the header wrote it, base64, into the turn's
    /// failure, the result, the journal and the terminal.
    @Test func aBaseURLPasswordEchoedAsBase64IsRedacted() async throws {
        let password = "hunter2-\(UUID().uuidString.prefix(8))"
        let basic = Data("alice:\(password)".utf8).base64EncodedString()
        let echo = #"{"error":{"message":"invalid credentials: Authorization: Basic \#(basic)","type":"authentication_error"}}"#
        let (written, requests) = try await servedRun(
            reply: .status(401, body: echo), baseURL: { $0.replacingOccurrences(of: "http://", with: "http://alice:\(password)@") })
        #expect(requests.contains { $0.headers["authorization"] == "Basic \(basic)" }, "the server saw the header")
        #expect(leaks(of: basic, in: written).isEmpty, "the base64 pair is written in \(leaks(of: basic, in: written))")
        #expect(
            leaks(of: password, length: 8, in: written).isEmpty, "the password is written in \(leaks(of: password, length: 8, in: written))"
        )
        #expect(written["stderr", default: ""].contains("[redacted]") || written.values.contains { $0.contains("Basic [redacted]") })
    }

    /// `--request-field 'metadata={"nested": {"api_key": "…"}}'`: only a top-level string field
    /// with a credential's name was a secret, so the key stayed in the recorded command and in the
    /// server's echo of the request.
    @Test func aKeyNestedInARequestFieldIsRedacted() async throws {
        let key = "sk-nested-\(UUID().uuidString)"
        let echo = #"{"error":{"message":"unknown field metadata: {\"nested\":{\"api_key\":\"\#(key)\"}}","type":"invalid_request_error"}}"#
        let (written, requests) = try await servedRun(
            reply: .status(400, body: echo), arguments: ["--request-field", #"metadata={"nested": {"api_key": "\#(key)"}}"#])
        #expect(requests.contains { $0.body.contains(key) }, "the field was sent")
        #expect(leaks(of: key, in: written).isEmpty, "the key is written in \(leaks(of: key, in: written))")
        let result = try #require(written.first { $0.key.hasSuffix(".json") }?.value)
        #expect(result.contains(#"metadata={\"nested\":{\"api_key\":\"[redacted]\"}}"#), "the recorded command keeps the field's shape")
    }
}

/// A child process watched while it runs: its peak resident memory (VmHWM) and CPU time, read
/// from /proc every 5 ms, and SIGKILL when it passes a memory or time bound.
struct ChildWatch {
    var outcome: ProcessRunner.Outcome
    var peakBytes: Int
    var cpuSeconds: Double
    var seconds: Double
    var killed: Bool

    private struct Sample: Sendable {
        var peak = 0
        var cpu = 0.0
        var killed = false
    }

    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], in directory: URL, killAbove bytes: Int,
        after seconds: Double
    ) async throws -> ChildWatch {
        let started = ContinuousClock.now
        let sample = Mutex(Sample())
        let outcome = try await ProcessRunner.run(executable, arguments, environment: environment, in: directory) { running in
            let pid = running.processIdentifier
            while let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let peak = field("VmHWM:", in: status)
            {
                let cpu = cpuSeconds(pid) ?? 0
                let over = peak > bytes || ContinuousClock.now - started > .seconds(seconds)
                sample.withLock {
                    $0.peak = max($0.peak, peak)
                    $0.cpu = max($0.cpu, cpu)
                    if over { $0.killed = true }
                }
                if over { running.send(SIGKILL) }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        let elapsed = ContinuousClock.now - started
        let final = sample.withLock { $0 }
        return ChildWatch(
            outcome: outcome, peakBytes: final.peak, cpuSeconds: final.cpu,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, killed: final.killed)
    }

    /// A `Name:   123 kB` line of /proc/PID/status, in bytes.
    private static func field(_ name: String, in status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        return line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }.map { $0 * 1024 }
    }

    /// User and system time so far, from /proc/PID/stat (fields 14 and 15, in clock ticks).
    private static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return nil
        }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command's closing parenthesis: state is field 3, so utime (14) is index 11.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
