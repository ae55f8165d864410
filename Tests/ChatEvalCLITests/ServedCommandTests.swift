import ChatEvalOpenAI
import ChatEvalTestKit
import Foundation
import Synchronization
import Testing

/// `chateval run --runtime openai`, `--shard`, `--concurrency` and `chateval merge` as a user
/// runs them, against a scripted loopback server.
@Suite(.timeLimit(.minutes(2))) struct ServedCommandTests {
    static let suite = """
        name: served
        gates: {max_failed_turns: 0}
        conversations:
          - {id: a, turns: ["one", "two"]}
          - {id: b, turns: ["three"]}
          - {id: c, turns: ["four", "five", "six"]}
        """

    static let answer = FakeChatServer.Reply.events(FakeChatServer.llamaServerEvents(["fine", "."]))

    /// A suite file and a reports folder in a fresh temporary folder.
    static func workspace() throws -> (suite: String, reports: String, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("served-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let suite = folder.appendingPathComponent("served.yaml").path
        try Self.suite.write(toFile: suite, atomically: true, encoding: .utf8)
        return (suite, folder.appendingPathComponent("reports").path, folder)
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessRunner.Outcome {
        try await ProcessRunner.run(CommandLineTests.binary, arguments, environment: environment, in: CommandLineTests.packageRoot)
    }

    static func results(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted().map { folder + "/" + $0 }
    }

    @Test func aServedRunIsRecordedWithoutItsAPIKey() async throws {
        let (suite, reports, folder) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = "sk-cli-\(UUID().uuidString)"
        try await FakeChatServer.run(replies: Array(repeating: Self.answer, count: 6)) { server in
            let outcome = try await run(
                [
                    "run", suite, "--no-project", "--reports", reports, "--runtime", "openai", "--base-url", server.baseURL,
                    "--model-name", "m", "--api-key-env", "SERVED_TEST_KEY",
                ], environment: ["SERVED_TEST_KEY": key])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("served at \(server.baseURL)"))
            #expect(!outcome.stdout.contains(key) && !outcome.stderr.contains(key))
            let files = try Self.results(in: reports)
            #expect(files.count == 1)
            let text = try String(contentsOfFile: files[0], encoding: .utf8)
            #expect(!text.contains(key))
            #expect(text.contains("\"in_process\" : false"))
            #expect(text.contains("\"base_url\" : \"command_line\""))
            #expect(await server.chatRequests.allSatisfy { $0.headers["authorization"] == "Bearer \(key)" })
        }
    }

    /// `suite` replayed twice against `server`, its results in `reports`.
    private func runTwice(_ suite: String, reports: String, server: FakeChatServer) async throws -> ProcessRunner.Outcome {
        try await run(
            [
                "run", suite, "--no-project", "--reports", reports, "--runtime", "openai", "--base-url", server.baseURL, "--model-name",
                "m",
                "--repeat", "2",
            ], environment: ["CI": "true"])
    }

    /// A plain run of several repetitions showed no figure before its end (320 turns with the
    /// project's 10): the suites' figures come after the first repetition.
    @Test func aRunOfSeveralRepetitionsShowsAFirstLook() async throws {
        let (suite, reports, folder) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FakeChatServer.run(replies: Array(repeating: Self.answer, count: 12)) { server in
            let outcome = try await runTwice(suite, reports: reports, server: server)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let lines = outcome.stdout.split(separator: "\n").map(String.init)
            let look = try #require(lines.firstIndex { $0.hasPrefix("first look, after repetition 1 of 2") }, "\(outcome.stdout)")
            #expect(lines[look + 1].contains("served: 0/0 checks passed, TTFT p50"))
            let done = try #require(lines.firstIndex { $0.hasPrefix("done      served") })
            #expect(look < done)
        }
    }

    /// Issue 44: the plan line said "1 suite, 6 conversations, 12 turns (2 repetitions)" for three
    /// conversations replayed twice: it counts conversations × repetitions, as a person does.
    @Test func thePlanCountsConversationsTimesRepetitions() async throws {
        let (suite, reports, folder) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FakeChatServer.run(replies: Array(repeating: Self.answer, count: 12)) { server in
            let outcome = try await runTwice(suite, reports: reports, server: server)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(
                outcome.stdout.contains("plan      1 suite: 3 conversations × 2 repetitions = 6 replays (12 turns), no warm-up\n"),
                "\(outcome.stdout)")
        }
    }

    /// The progress line said "2 failed" for turns whose failure the suite expected.
    @Test func theProgressLineTellsExpectedFailuresFromFailures() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("served-expected-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = folder.appendingPathComponent("overflow.yaml").path
        try """
        name: overflow
        conversations:
          - id: a
            turns:
              - user: hello
              - user: a very long message
                checks: [{type: failure, value: context_overflow}]
          - id: b
            turns: ["again"]
        """.write(toFile: suite, atomically: true, encoding: .utf8)
        let overflow = FakeChatServer.Reply.status(
            400,
            body:
                #"{"error":{"code":400,"message":"request (3046 tokens) exceeds the available context size (2048 tokens)","#
                + #""type":"exceed_context_size_error","n_prompt_tokens":3046,"n_ctx":2048}}"#
        )
        try await FakeChatServer.run(replies: [Self.answer, overflow, .status(500, body: "down")]) { server in
            let outcome = try await run(
                [
                    "run", suite, "--no-project", "--reports", folder.appendingPathComponent("reports").path, "--runtime", "openai",
                    "--base-url", server.baseURL, "--model-name", "m", "--retries", "0",
                ], environment: ["CI": "true"])
            #expect(outcome.stderr.contains("overflow/a: 1 answered, 1 failed as expected ·"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("overflow/b: 0 answered, 1 failed ·"), "\(outcome.stderr)")
            // No gates: the unexpected failure fails the run, the expected one does not.
            #expect(outcome.status == 1)
            #expect(
                outcome.stdout.contains("max_failed_turns ≤ 0 (implied: no gates declared) — found 1 unexpected failures"),
                "\(outcome.stdout)")
        }
    }

    /// promptfoo's getting-started config, run as it is and imported: each prompt × test a
    /// conversation, the variables filled in, and — as promptfoo exits non-zero on a failed
    /// assertion — exit 1 when a check fails.
    @Test func aPromptfooConfigRunsAsItIsAndImportsToASuite() async throws {
        let config = CommandLineTests.packageRoot.appendingPathComponent(
            "Tests/ChatEvalSuitesTests/Fixtures/promptfoo/getting-started.yaml"
        ).path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("promptfoo-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let replies = ["Bonjour le monde", "Bonjour tout le monde", "¿Dónde está la biblioteca?", "Where?"].map {
            FakeChatServer.Reply.events(FakeChatServer.llamaServerEvents([$0]))
        }
        try await FakeChatServer.run(replies: replies) { server in
            let outcome = try await run(
                [
                    "run", config, "--no-project", "--reports", folder.appendingPathComponent("reports").path, "--runtime", "openai",
                    "--base-url", server.baseURL, "--model-name", "m",
                ], environment: ["CI": "true"])
            let sent = await server.chatRequests.compactMap { ($0.json?["messages"] as? [[String: Any]])?.last?["content"] as? String }
            #expect(
                sent == [
                    "Convert this English to French: Hello world", "Translate to French: Hello world",
                    "Convert this English to Spanish: Where is the library?", "Translate to Spanish: Where is the library?",
                ], "\(sent)")
            // The two prompts are columns of the matrix, as in promptfoo's view.
            #expect(outcome.stdout.contains("matrix: 2 columns"), "\(outcome.stdout)")
            #expect(outcome.status == 1, "\(outcome.stdout)\n\(outcome.stderr)")
            #expect(outcome.stdout.contains("no gates declared, so every check had to pass"))
            #expect(outcome.stderr.contains("providers are not read"))
        }
        let suite = folder.appendingPathComponent("translations.yaml").path
        let imported = try await run(["import", "promptfoo", config, "-o", suite])
        #expect(imported.status == 0, "\(imported.stderr)")
        let validated = try await run(["validate", suite, "--no-project"])
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(
            validated.stdout.contains("4 conversations (2 × 2 variants), 4 turns, 4 checks, no gates (every check must pass)"),
            "\(validated.stdout)")
    }

    @Test func theProjectFileNamesTheServerAndTheCommandLineWins() async throws {
        let (suite, reports, folder) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FakeChatServer.run(replies: Array(repeating: Self.answer, count: 6)) { server in
            let project = folder.appendingPathComponent("chateval.yaml").path
            try "runtime:\n  kind: openai\n  base_url: \(server.baseURL)\n  model_name: from-project\n  retries: 1\n"
                .write(toFile: project, atomically: true, encoding: .utf8)
            let outcome = try await run(["run", suite, "--project", project, "--reports", reports, "--model-name", "from-cli"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(await server.chatRequests.allSatisfy { $0.json?["model"] as? String == "from-cli" })
            let text = try String(contentsOfFile: try #require(try Self.results(in: reports).first), encoding: .utf8)
            #expect(text.contains("\"base_url\" : \"project_file\""))
            #expect(text.contains("\"model_name\" : \"command_line\""))
            #expect(text.contains("\"runtime\" : \"project_file\""))
            #expect(!text.contains("\"threads\" : \"default\""))  // the in-process model's settings are not this run's
        }
    }

    @Test func shardsRunSeparatelyAndMergeIntoOneRun() async throws {
        let (suite, reports, folder) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FakeChatServer.run(replies: Array(repeating: Self.answer, count: 6)) { server in
            var shardFiles: [String] = []
            for shard in ["1/2", "2/2"] {
                let shardReports = reports + "-" + shard.replacingOccurrences(of: "/", with: "of")
                let outcome = try await run([
                    "run", suite, "--no-project", "--reports", shardReports, "--runtime", "openai",
                    "--base-url", server.baseURL, "--model-name", "m", "--shard", shard,
                ])
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(outcome.stdout.contains("gates are decided when the shards are joined"))
                shardFiles += try Self.results(in: shardReports)
            }
            #expect(shardFiles.count == 2)

            let missing = try await run(["merge", shardFiles[0], "--reports", reports])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("2/2 is missing"))

            let merged = try await run(["merge"] + shardFiles.reversed() + ["--reports", reports])
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(merged.stdout.contains("merged    2 shards"))
            let files = try Self.results(in: reports)
            #expect(files.count == 1)
            let text = try String(contentsOfFile: files[0], encoding: .utf8)
            for id in ["\"id\" : \"a\"", "\"id\" : \"b\"", "\"id\" : \"c\""] { #expect(text.contains(id)) }
            #expect(!text.contains("\"shard\""))
        }
    }

    @Test func aSweepWritesOneResultPerLevelATableAndAChart() async throws {
        let (suite, reports, folder) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FakeChatServer.run(replies: Array(repeating: Self.answer, count: 12)) { server in
            let chart = folder.appendingPathComponent("sweep.svg").path
            let outcome = try await run([
                "run", suite, "--no-project", "--reports", reports, "--runtime", "openai", "--base-url", server.baseURL,
                "--model-name", "m", "--concurrency", "1,2", "--sweep-chart", chart,
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("concurrency  requests"))
            #expect(try Self.results(in: reports).count == 2)
            let svg = try String(contentsOfFile: chart, encoding: .utf8)
            #expect(svg.hasPrefix("<svg") && svg.contains("c=2"))
        }
    }

    @Test func severalServedModelsRunSideBySideOneRecordEachInOneGroup() async throws {
        let (suite, reports, folder) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FakeChatServer.run(replies: Array(repeating: Self.answer, count: 12)) { server in
            let outcome = try await run([
                "run", suite, "--no-project", "--reports", reports, "--runtime", "openai", "--base-url", server.baseURL,
                "--model-name", "small", "--model-name", "large",
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("model 1 of 2: small") && outcome.stdout.contains("model 2 of 2: large"), "\(outcome.stdout)")
            // Each model's six turns in turn, named in the requests' model field.
            let models = await server.chatRequests.map { $0.json?["model"] as? String }
            #expect(models == Array(repeating: "small", count: 6) + Array(repeating: "large", count: 6))
            let records = try Self.results(in: reports).map { path in
                try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            }
            let groups = records.compactMap { $0["group"] as? [String: Any] }
            #expect(groups.count == 2 && Set(groups.compactMap { $0["id"] as? String }).count == 1)
            #expect(Set(groups.compactMap { $0["label"] as? String }) == ["small", "large"])
        }
    }

    @Test(arguments: [
        (["--model", "x.gguf"], "name a served model with --model-name"),
        (["--model-name", "a", "--model-name", "b", "--shard", "1/2"], "--shard runs one model"),
        (["--model-name", "a", "--model-name", "a"], "repeats a model"),
    ])
    func servedModelOptionsThatCannotWorkAreBadInput(_ options: [String], _ message: String) async throws {
        let outcome = try await run(
            ["run", "suites/smoke.yaml", "--no-project", "--runtime", "openai", "--base-url", "http://127.0.0.1:9/v1"] + options)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    /// `/props` as llama-server answers it: the server is llama-server and takes `cache_prompt`.
    static let llamaServerProps = FakeChatServer.Reply.status(
        200, body: #"{"build_info":"b1-test","default_generation_settings":{"n_ctx":2048}}"#)

    @Test(arguments: [false, true])
    func coldModeTurnsOffLlamaServersCacheAndSaysWhenAServerCannotBeTold(_ isLlamaServer: Bool) async throws {
        let (suite, reports, folder) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let routes = isLlamaServer ? ["/props": Self.llamaServerProps] : [:]
        try await FakeChatServer.run(replies: Array(repeating: Self.answer, count: 6), routes: routes) { server in
            let outcome = try await run([
                "run", suite, "--no-project", "--reports", reports, "--runtime", "openai", "--base-url", server.baseURL,
                "--model-name", "m", "--cache-mode", "cold",
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("cannot be told to skip its prompt cache") == !isLlamaServer, "\(outcome.stderr)")
            let requests = await server.chatRequests
            #expect(requests.count == 6)
            #expect(requests.allSatisfy { ($0.json?["cache_prompt"] as? Bool) == (isLlamaServer ? false : nil) })
        }
    }

    @Test(arguments: [
        (["--concurrency", "2"], "needs a served runtime"),
        (["--concurrency", "0"], "give a number from 1 to 1024"),
        (["--shard", "5/4"], "write I/N"),
        (["--runtime", "openai"], "needs the server's base URL"),
        (["--runtime", "openai", "--base-url", "ftp://x"], "http:// or https://"),
        (["--base-url", "http://127.0.0.1:9/v1", "--runtime", "llama"], "need --runtime openai"),
    ])
    func nonsenseIsBadInput(_ options: [String], _ message: String) async throws {
        let outcome = try await run(["run", "suites/smoke.yaml", "--no-project"] + options)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func aServerThatIsNotThereMeansTheRunCannotHappen() async throws {
        let port = try await LocalLlamaServer.freePort()
        let outcome = try await run([
            "run", "suites/smoke.yaml", "--no-project", "--runtime", "openai", "--base-url", "http://127.0.0.1:\(port)/v1",
            "--connect-timeout", "0.5", "--retries", "0",
        ])
        #expect(outcome.status == 3, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("cannot reach"))
    }

    /// libcurl is loaded when the served runtime makes its first request, not at start-up (see
    /// CCurl): the loader's own log (glibc's LD_DEBUG=files) shows it loaded for a served run, and
    /// none of it for `validate`. Where it cannot be loaded (a file that is not a library first in
    /// the search path), the served run says so and what to install, exit 3; nothing says "cannot
    /// reach" a server that was never tried.
    @Test func libcurlIsLoadedOnTheFirstRequestAndItsAbsenceIsNamed() async throws {
        let (suite, reports, folder) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        func loaderLog(_ arguments: [String]) async throws -> (outcome: ProcessRunner.Outcome, log: String) {
            let prefix = folder.appendingPathComponent("loader-\(UUID().uuidString)").path
            let outcome = try await run(arguments, environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": prefix])
            let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                (folder.appendingPathComponent($0).path).hasPrefix(prefix)
            }
            let log = try logs.map { try String(contentsOfFile: folder.appendingPathComponent($0).path, encoding: .utf8) }.joined()
            return (outcome, log)
        }
        let validated = try await loaderLog(["validate", suite])
        #expect(validated.outcome.status == 0, "\(validated.outcome.stderr)")
        #expect(validated.log.contains("file=libswiftCore.so"), "the loader's log is empty: \(validated.log.prefix(300))")
        #expect(!validated.log.contains("libcurl"))
        try await FakeChatServer.run(replies: Array(repeating: Self.answer, count: 6)) { server in
            let served = try await loaderLog([
                "run", suite, "--no-project", "--reports", reports, "--runtime", "openai", "--base-url", server.baseURL, "--model-name",
                "m",
            ])
            #expect(served.outcome.status == 0, "\(served.outcome.stderr)")
            #expect(served.log.contains("file=libcurl.so.4 [0];  dynamically loaded by"))
        }

        let notALibrary = folder.appendingPathComponent("broken-libraries")
        try FileManager.default.createDirectory(at: notALibrary, withIntermediateDirectories: true)
        try Data().write(to: notALibrary.appendingPathComponent("libcurl.so.4"))
        let port = try await LocalLlamaServer.freePort()
        let missing = try await run(
            [
                "run", suite, "--no-project", "--reports", reports, "--runtime", "openai", "--base-url", "http://127.0.0.1:\(port)/v1",
                "--model-name", "m", "--retries", "0",
            ], environment: ["LD_LIBRARY_PATH": notALibrary.path])
        #expect(missing.status == 3, "\(missing.stderr)")
        #expect(
            missing.stderr.contains("libcurl could not be loaded (\(notALibrary.path)/libcurl.so.4: file too short)"), "\(missing.stderr)")
        #expect(missing.stderr.contains("apt-get install libcurl4"))
        #expect(!missing.stderr.contains("cannot reach"))

        // A bisection over served commits stops before building or starting anything, rather than
        // retrying each server's readiness until its bound and skipping every commit.
        let repository = try await BisectChildrenTests.Repository()
        let bisect = try await ProcessRunner.run(
            CommandLineTests.binary, ["bisect", "HEAD~1", "HEAD", "--serve", "exec sleep 1000", "--serve-ready-timeout", "10m"],
            environment: ["CI": "true", "LD_LIBRARY_PATH": notALibrary.path], in: repository.root)
        #expect(bisect.status == 3, "\(bisect.stderr)")
        #expect(bisect.stderr.contains("libcurl could not be loaded"), "\(bisect.stderr)")
        #expect(!bisect.stderr.contains("did not become ready"))
    }

    /// Piped, as in every CI log (`| cat`): the header is there at once, before any answer, and a
    /// suite's line as soon as that suite is done — while the next suite's answer is still
    /// streaming, long before the run ends. The server holds each answer open until the log
    /// shows the line that must come first (up to 30 s), noting what the log held then: the order
    /// is asserted without any timing, so a loaded runner cannot fail it, and a binary that
    /// buffers its output until exit leaves the answers held and nothing noted.
    @Test func aPipedRunShowsItsHeaderAtOnceAndEachSuiteAsItEnds() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("piped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["first", "second"] {
            try "name: \(name)\nconversations:\n  - {id: c, turns: [hello]}\n"
                .write(to: folder.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
        let log = folder.appendingPathComponent("log.txt")
        let seen = SeenLines()
        /// An answer whose first piece is sent, then held until the log holds `line` (noting the
        /// log's text at that moment under `line`), then finished.
        func held(until line: String) -> FakeChatServer.Reply {
            let events = FakeChatServer.llamaServerEvents(["one", " two", " three"]).map { "data: \($0)\n\n" }
            return .script(
                [.text(events[0] + events[1])]
                    + [
                        .until {
                            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                            guard text.contains(line) else { return false }
                            seen.note(line, text)
                            return true
                        }
                    ] + events.dropFirst(2).map { .text($0) })
        }
        try await FakeChatServer.run(replies: [held(until: "plan      "), held(until: "done      first")]) { server in
            let arguments = [
                CommandLineTests.binary.path, "run", "first.yaml", "second.yaml", "--no-project", "--reports", "reports",
                "--runtime", "openai", "--base-url", server.baseURL, "--model-name", "m",
            ]
            let outcome = try await ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", #""$@" | cat > log.txt"#, "sh"] + arguments, in: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(await server.chatRequests.count == 2)
        }
        // The header, while the first answer was held open: no suite done yet.
        let header = try #require(seen.text("plan      "), "the header did not reach the log while the first answer streamed")
        #expect(!header.contains("done      "), "\(header)")
        // The first suite's line, while the second's answer was held open.
        let atFirstSuite = try #require(
            seen.text("done      first"), "the first suite's line did not reach the log while the second answer streamed")
        #expect(!atFirstSuite.contains("done      second") && !atFirstSuite.contains("result    "), "\(atFirstSuite)")
        #expect(try String(contentsOf: log, encoding: .utf8).contains("result    "))
    }
}

/// What a piped run's log held when each awaited line first appeared in it.
private final class SeenLines: Sendable {
    private let seen = Mutex<[String: String]>([:])
    func note(_ line: String, _ text: String) { seen.withLock { $0[line] = $0[line] ?? text } }
    func text(_ line: String) -> String? { seen.withLock { $0[line] } }
}

/// `run` on a machine other processes keep busy, against a scripted loopback server.
@Suite(.timeLimit(.minutes(2))) struct BusyMachineCommandTests {
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessRunner.Outcome {
        try await ProcessRunner.run(CommandLineTests.binary, arguments, environment: environment, in: CommandLineTests.packageRoot)
    }

    /// The start's sample of the machine now ends once the model is loaded (or the server
    /// connected), no longer before: on a busy machine `--require-quiet` still refuses before any
    /// turn (exit 3, nothing recorded), and without it the run warns, names the load, and records
    /// the start's sample and the run's own. Two spinning shells keep the machine busy whatever
    /// else runs.
    @Test func aBusyMachineIsRefusedBeforeAnyTurnOrWarnedAndRecorded() async throws {
        let (suite, reports, folder) = try ServedCommandTests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spinners = try (0..<2).map { _ in try SpinningProcess() }
        defer { spinners.forEach { $0.stop() } }
        try await FakeChatServer.run(replies: Array(repeating: ServedCommandTests.answer, count: 6)) { server in
            let served = ["--no-project", "--runtime", "openai", "--base-url", server.baseURL, "--model-name", "m"]
            let refused = try await run(["run", suite, "--reports", reports, "--require-quiet"] + served, environment: ["CI": "true"])
            #expect(refused.status == 3, "\(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr.contains("timings taken now would carry their noise (--require-quiet)"), "\(refused.stderr)")
            #expect(!refused.stdout.contains("[1/"), "no turn ran: \(refused.stdout)")
            #expect((try? ServedCommandTests.results(in: reports))?.isEmpty ?? true, "nothing recorded")

            let warned = try await run(["run", suite, "--reports", reports] + served, environment: ["CI": "true"])
            #expect(warned.status == 0, "\(warned.stderr)")
            #expect(warned.stdout.contains("machine   busy: other processes use"), "\(warned.stdout)")
            #expect(warned.stderr.contains("--require-quiet refuses to run"), "\(warned.stderr)")
            let result = try #require(try ServedCommandTests.results(in: reports).first)
            let record = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result))) as? [String: Any])
            let environment = try #require(record["environment"] as? [String: Any])
            let start = try #require(environment["start"] as? [String: Any]), end = try #require(environment["end"] as? [String: Any])
            #expect(((start["seconds"] as? Double) ?? 0) >= 0.5, "the start's sample lasts its minimum: \(start)")
            #expect(((start["other_processes_cores"] as? Double) ?? 0) >= 0.25, "\(start)")
            #expect(((end["seconds"] as? Double) ?? 0) > 0, "the run's own sample: \(end)")
        }
    }
}
