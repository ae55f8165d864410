import ArgumentParser
import ChatEvalCore
import ChatEvalLlama
import ChatEvalOpenAI
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalToolKit
import Foundation

/// The same greedy conversation in process and over llama-server (same model, threads, template,
/// context), alternating, then a concurrency sweep against llama-server with parallel slots.
///
/// Transport overhead is, per turn, the server's TTFT minus the in-process TTFT of the same pair:
/// HTTP, JSON and server-sent events, and llama-server's own request handling (its template and
/// tokenizer run on the server side, the in-process runtime's in its turn). Both sides reuse the
/// previous turn's cache (session mode) and decode the same number of tokens (end of generation
/// ignored), so what differs is the serving path.
struct ServedBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "served", abstract: "In-process against llama-server: TTFT, tokens/s, transport overhead; a concurrency sweep.")

    @OptionGroup var options: ModelOptions
    @Option(help: "Path of llama-server built from the same llama.cpp tree.") var llamaServer: String
    @Option(help: "Alternating pairs of the side-by-side conversation.") var repetitions: Int = 5
    @Option(help: "Tokens generated per turn.") var turnTokens: Int = 32
    @Option(help: "Concurrency levels of the sweep.") var concurrency: String = "1,2,4"
    @Option(help: "Parallel slots of the sweep's llama-server.") var parallel: Int = 4
    @Option(help: "Conversations replayed at each level of the sweep.") var conversations: Int = 8
    @Option(help: "The sweep's TTFT objective (p95, seconds), for goodput.") var ttftObjective: Double = 2

    var levels: [Int] { concurrency.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    func validate() throws {
        guard FileManager.default.isExecutableFile(atPath: llamaServer) else {
            throw ValidationError("no llama-server at \(llamaServer); `make bench` builds it")
        }
        guard repetitions >= 1, turnTokens >= 2, parallel >= 1, conversations >= 1, ttftObjective > 0 else {
            throw ValidationError("repetitions ≥ 1, turn tokens ≥ 2, parallel ≥ 1, conversations ≥ 1, TTFT objective > 0")
        }
        guard !levels.isEmpty, levels.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError("--concurrency: a list of levels such as 1,2,4")
        }
    }

    static let questions = [
        "I want to visit Portugal in May. Where should I start?", "How many days would you spend in Lisbon?",
        "What is a good day trip from Lisbon?", "Summarise the plan in two lines.",
    ]

    func script(id: String) -> ConversationScript {
        ConversationScript(
            id: id, systemPrompt: "You are a helpful travel assistant. Keep answers short.",
            options: GenerationOptions(maxTokens: turnTokens, temperature: 0, seed: 42, ignoreEndOfGeneration: true),
            userMessages: Self.questions.map { TemplateText(literal: $0) })
    }

    /// llama-server settings matching the in-process runtime's: threads, batch, 4096 tokens of
    /// context per slot, and the template rendered by `llama_chat_apply_template` as in process
    /// (`--no-jinja`), so both sides see the same prompt tokens (the table shows both counts).
    func serverArguments(slots: Int) -> [String] {
        var arguments = [
            "-t", String(options.threads), "-c", String(4096 * slots), "-np", String(slots), "-b", "512", "--no-webui", "--no-jinja",
        ]
        if let template = options.chatTemplate { arguments += ["--chat-template", template, "--swa-full"] }
        return arguments
    }

    func run() async throws {
        options.announce("In process against llama-server")
        try await sideBySide()
        try await sweep()
    }

    // MARK: Side by side

    private func sideBySide() async throws {
        let inProcess = try options.runtime()
        try await LocalLlamaServer.run(model: options.model, arguments: serverArguments(slots: 1), executable: llamaServer) { server in
            try await Self.connected(server) { connection in
                let served = connection.makeRuntime()
                let conversation = script(id: "side-by-side")
                print(
                    "a \(conversation.userMessages.count)-turn greedy conversation, \(turnTokens) tokens per answer, "
                        + "\(repetitions) alternating pairs; server: \(connection.server.engine) \(connection.server.build ?? "")"
                )
                // Like for like: the in-process greedy answers, once, become the transcript both
                // sides' histories carry, so every turn sends both the same prompt whatever each
                // answers (they part when the server's arithmetic picks another token).
                let transcript = try await Self.replayed(conversation, inProcess, transcript: nil).answers
                var pairs: [(local: [TurnMetrics], served: [TurnMetrics])] = []
                for pair in 1...repetitions {
                    var local: [TurnMetrics] = [], remote: [TurnMetrics] = []
                    for side in pair % 2 == 1 ? [0, 1] : [1, 0] {
                        if side == 0 {
                            local = try await Self.replayed(conversation, inProcess, transcript: transcript).metrics
                        } else {
                            remote = try await Self.replayed(conversation, served, transcript: transcript).metrics
                        }
                    }
                    pairs.append((local, remote))
                }
                report(pairs)
            }
        }
    }

    private func report(_ pairs: [(local: [TurnMetrics], served: [TurnMetrics])]) {
        var table = TextTable([
            .init("turn"), .init("prompt in/srv"), .init("reused in/srv"), .init("reuse eff. in/srv"), .init("TTFT in process"),
            .init("TTFT server"), .init("overhead (median)"), .init("TTFT srv spread"), .init("decode t/s in"), .init("decode t/s srv"),
        ])
        let comparable = LikeForLike.comparableTurns(pairs)
        for turn in pairs[0].local.indices {
            let local = pairs.map { $0.local[turn] }, served = pairs.map { $0.served[turn] }
            let overheads = zip(served, local).map { $0.timeToFirstToken - $1.timeToFirstToken }
            table.add([
                String(turn + 1), "\(local[0].promptTokens)/\(served[0].promptTokens)",
                "\(local[0].reusedTokens.map(String.init) ?? "?")/\(served[0].reusedTokens.map(String.init) ?? "?")",
                "\(Format.percent(local[0].reuseEfficiency))/\(Format.percent(served[0].reuseEfficiency))",
                Format.duration(median(local.map(\.timeToFirstToken))), Format.duration(median(served.map(\.timeToFirstToken))),
                comparable.contains(turn) ? Format.duration(median(overheads)) : "not comparable", spread(served.map(\.timeToFirstToken)),
                Format.rate(median(local.compactMap(\.decodeTokensPerSecond))),
                Format.rate(median(served.compactMap(\.decodeTokensPerSecond))),
            ])
        }
        print("\n" + table.render(indent: "   "))
        let turnCount = pairs[0].local.count
        if comparable.count < turnCount {
            let parted = (0..<turnCount).filter { !comparable.contains($0) }.map { String($0 + 1) }.joined(separator: ", ")
            print(
                "   not comparable: turns \(parted) "
                    + "(the two sides were sent different prompt token counts in some pair); left out of the overhead")
        }
        let all = pairs.flatMap {
            zip($0.served, $0.local).enumerated().filter { comparable.contains($0.offset) }.map {
                $0.element.0.timeToFirstToken - $0.element.1.timeToFirstToken
            }
        }
        let ratios = pairs.flatMap {
            zip($0.served, $0.local).compactMap { pair -> Double? in
                guard let served = pair.0.decodeTokensPerSecond, let local = pair.1.decodeTokensPerSecond, local > 0 else { return nil }
                return served / local
            }
        }
        print(
            String(
                format:
                    "   transport overhead, every comparable turn of every pair: median %@ (min %@, max %@); "
                    + "decode t/s server / in process: median %.3f×",
                Format.duration(median(all)), Format.duration(all.min()), Format.duration(all.max()), median(ratios)))
        // What the caches could serve and did, side by side: reusable and missed tokens, and the
        // prefill time the misses cost (each turn's own per-token rate).
        for (side, turns) in [("in process", pairs.flatMap(\.local)), ("llama-server", pairs.flatMap(\.served))] {
            let reusable = turns.compactMap(\.reusableTokens).reduce(0, +), missed = turns.compactMap(\.missedTokens).reduce(0, +)
            let lost = turns.compactMap(\.missedPrefillTime).reduce(0, +)
            let causes = Dictionary(grouping: turns.compactMap { $0.reuseMiss?.cause.rawValue }, by: { $0 }).map {
                "\($0.key) \($0.value.count)"
            }
            print(
                "   reuse \(side): \(reusable - missed) of \(reusable) reusable tokens reused "
                    + "(\(Format.percent(reusable > 0 ? Double(reusable - missed) / Double(reusable) : nil))), "
                    + "\(missed) evaluated again, \(Format.duration(lost)) lost"
                    + (causes.isEmpty ? "" : "; misses: " + causes.sorted().joined(separator: ", ")))
        }
    }

    // MARK: Sweep

    private func sweep() async throws {
        try await LocalLlamaServer.run(model: options.model, arguments: serverArguments(slots: parallel), executable: llamaServer) {
            server in
            try await Self.connected(server) { connection in
                let suite = Suite(
                    name: "served-bench", path: "(bench)",
                    conversations: (1...conversations).map { SuiteConversation(id: "c\($0)", script: script(id: "c\($0)")) },
                    slo: ServiceLevelObjectives([.init(metric: .timeToFirstToken, bound: ttftObjective, percentile: 95)]))
                let plan = RunPlan(suites: [suite], settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
                print(
                    "\nconcurrency sweep against llama-server --parallel \(parallel): \(conversations) conversations of "
                        + "\(Self.questions.count) turns at each level, goodput against TTFT p95 ≤ \(Format.duration(ttftObjective))"
                )
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-served-bench-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: folder) }
                var summaries: [LoadSummary] = []
                for level in levels {
                    let runtimes = (0..<level).map { _ in connection.makeRuntime() }
                    let record = RunRecord(
                        runId: ResultWriter.newRunId(), startedAt: Date(), command: CommandLine.arguments, git: nil,
                        machine: MachineInfo.current(), runtime: connection.identity, modelSha256: nil, settings: plan.settings)
                    let writer = try ResultWriter(folder: folder, record: record, suites: [])
                    let final = try await LoadRunner(plan: plan, runtimes: runtimes).run(into: record, writer: writer, stop: StopRequest())
                    guard let load = final.load else { throw BenchError("the level \(level) recorded no load summary") }
                    if load.failedRequests > 0 {
                        let failure = final.suites.flatMap(\.conversations).flatMap(\.turns).compactMap(\.failure).first
                        print("   concurrency \(level): \(load.failedRequests) turns failed, e.g. \(failure?.description ?? "?")")
                    }
                    summaries.append(load)
                }
                print("\n" + LoadReport.table(summaries, indent: "   "))
            }
        }
    }

    // MARK: Pieces

    /// Waits for the server, opens a connection, runs `body`, and shuts the connection down
    /// whether the body returns or throws.
    private static func connected<T>(_ server: LocalLlamaServer.Running, body: (OpenAIConnection) async throws -> T) async throws -> T {
        do {
            try await OpenAIConnection.waitUntilReady(baseURL: server.baseURL, timeout: 120)
        } catch {
            throw BenchError("\(error)\n\(LocalLlamaServer.tail(of: server))")
        }
        let connection = try await OpenAIConnection.open(OpenAIConfiguration(baseURL: server.baseURL, modelName: "", requestTimeout: 300))
        do {
            let result = try await body(connection)
            await connection.shutdown()
            return result
        } catch {
            await connection.shutdown()
            throw error
        }
    }

    private static func replayed(
        _ script: ConversationScript, _ runtime: any ChatRuntime, transcript: [String]?
    ) async throws -> (metrics: [TurnMetrics], answers: [String]) {
        let results = await ConversationReplayer(runtime: runtime, cacheMode: .session, transcript: transcript).replay(script)
        let metrics = results.compactMap(\.metrics)
        guard metrics.count == script.userMessages.count else {
            throw BenchError("a turn failed: \(results.compactMap(\.failure).first?.description ?? "unknown")")
        }
        return (metrics, results.map { $0.answer ?? "" })
    }
}

/// Which turns of a side-by-side replay compare like for like: those where, in every pair, both
/// sides were sent the same number of prompt tokens. Another count means another prompt (a
/// history that parted, another template), and its TTFT difference is not the transport's.
enum LikeForLike {
    static func comparableTurns(_ pairs: [(local: [TurnMetrics], served: [TurnMetrics])]) -> Set<Int> {
        guard let first = pairs.first else { return [] }
        return Set(
            first.local.indices.filter { turn in
                pairs.allSatisfy {
                    turn < $0.local.count && turn < $0.served.count && $0.local[turn].promptTokens == $0.served[turn].promptTokens
                }
            })
    }
}
