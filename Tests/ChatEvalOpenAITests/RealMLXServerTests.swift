import ChatEvalCore
import ChatEvalOpenAI
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Testing

/// A real `mlx_lm.server` (mlx-lm 0.32.2 on MLX's CPU backend, the pinned environment of
/// scripts/setup.sh mlx) serving the default chat model converted from the shipped GGUF: the
/// shipped smoke and memory suites replayed through the OpenAI runtime, their five conversations
/// at once (batched by the server), streamed, TTFT recorded, reuse as the server reports it. The
/// server is stopped by its process id whatever happens.
// The time limit bounds a server that hangs; the test took 93-109 s on the 2-core machine with
// other builds running (load 3.5-6).
@Suite("RealModel mlx_lm.server", .serialized, .tags(.realModel), .usesAllCores, .timeLimit(.minutes(10)))
struct RealMLXServerTests {
    static let suites = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("suites")

    @Test func theSmokeAndMemorySuitesFiveConversationsAtOnceStreamAreMeasuredAndReuseWhatTheServerReports() async throws {
        try #require(LocalMLXServer.python != nil, "CHATEVAL_MLX_PYTHON is not set: run the tests with `make test`")
        // Room in its prompt cache for five conversations at once (10 entries by default).
        try await LocalMLXServer.run(arguments: ["--prompt-cache-size", "32"]) { server in
            guard let connection = try await connectionWhenReady(to: server, named: "mlx_lm.server", modelName: "", requestTimeout: 300)
            else { return }
            #expect(connection.server.engine == "mlx_lm.server")
            #expect(connection.configuration.modelName == "default_model")
            // mlx_lm.server batches requests that carry no seed (ChatEval sends none at
            // temperature 0): the five conversations (smoke's one, memory's four) are served at
            // once, as `run --concurrency 5` sends them.
            let record = try await Self.replay(["smoke.yaml", "memory.yaml"], over: connection, concurrency: 5)
            await connection.shutdown()

            #expect(record.load?.concurrency == 5 && record.load?.failedRequests == 0)
            #expect(record.runtime.engine == "mlx_lm.server" && record.runtime.inProcess == false)
            #expect(record.suites.map(\.name) == ["smoke", "memory"])
            #expect(record.suites.flatMap(\.conversations).count == 5)
            for conversation in record.suites.flatMap(\.conversations) {
                try Self.expectMeasured(conversation)
            }
        }
    }

    /// Every turn answered, streamed in pieces, timed, counted, with reuse as the server reported it.
    static func expectMeasured(_ conversation: ConversationRecord) throws {
        for (index, turn) in conversation.turns.enumerated() {
            let name = "\(conversation.id) turn \(index + 1)"
            #expect(turn.status == .answered, "\(name): \(turn.failure?.description ?? "")")
            #expect(turn.answer?.isEmpty == false, "\(name)")
            let metrics = try #require(turn.metrics, "\(name)")
            #expect((metrics.server?.contentDeltas ?? 0) > 1, "\(name): the answer arrived in pieces")
            #expect(metrics.timeToFirstToken > 0 && metrics.timeToFirstToken < metrics.totalTime, "\(name)")
            #expect(metrics.promptTokens > 0 && metrics.generatedTokens > 0 && metrics.server?.usageReported == true, "\(name)")
            // mlx_lm.server reports its cache (usage.prompt_tokens_details.cached_tokens): reuse is known on every turn.
            #expect(metrics.reusedTokens != nil, "\(name)")
            // It reports no timings of its own: prefill time is not known, never guessed.
            #expect(metrics.prefillTime == nil && metrics.server?.promptEvaluatedTokens == nil, "\(name)")
            if index > 0 {
                // A later turn's prompt starts with the earlier turns, which its cache holds.
                #expect((metrics.reusedTokens ?? 0) > metrics.promptTokens / 2, "\(name): reused \(metrics.reusedTokens ?? -1)")
                #expect(metrics.reusableTokens != nil, "\(name)")
            }
        }
    }

    /// Replays the shipped suites `files` over `connection` into a scratch result folder, one
    /// repetition, session mode, `concurrency` conversations at once (`run --concurrency`), each
    /// answer at most `maxTokens` long: what is checked is how turns are streamed, timed and
    /// reused, and MLX's CPU backend decodes about 5 tokens a second here (2-core Intel Xeon,
    /// 2026-11-30: 3.0–3.9 s for 8 tokens, 7.6–11.7 s for the suites' 32).
    static func replay(_ files: [String], over connection: OpenAIConnection, concurrency: Int, maxTokens: Int = 8) async throws
        -> RunRecord
    {
        let suites = try files.map { file in
            var suite = try SuiteLoader.load(path: Self.suites.appendingPathComponent(file).path)
            for index in suite.conversations.indices {
                suite.conversations[index].script.options.maxTokens = min(suite.conversations[index].script.options.maxTokens, maxTokens)
            }
            return suite
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mlx-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0)
        let record = RunRecord(
            runId: ResultWriter.newRunId(), startedAt: Date(), command: ["test"], git: nil, machine: MachineInfo.current(),
            runtime: connection.identity, modelSha256: nil, settings: settings)
        let writer = try ResultWriter(
            folder: folder, record: record, suites: suites.map { SuiteSource(path: $0.path, text: $0.text) })
        let runtimes = (0..<concurrency).map { _ in connection.makeRuntime(streams: concurrency) }
        let plan = RunPlan(suites: suites, settings: settings)
        return try await LoadRunner(plan: plan, runtimes: runtimes).run(into: record, writer: writer, stop: StopRequest())
    }
}
