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
/// shipped smoke and memory suites replayed through the OpenAI runtime, streamed, TTFT recorded,
/// reuse as the server reports it; then two conversations at once, batched by the server. The server is stopped by its
/// process id whatever happens.
// The time limit bounds a server that hangs; the replays take under a minute on an idle 2-core machine.
@Suite("RealModel mlx_lm.server", .serialized, .tags(.realModel), .usesAllCores, .timeLimit(.minutes(10)))
struct RealMLXServerTests {
    static let suites = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("suites")

    @Test func theSmokeAndMemorySuitesStreamAreMeasuredAndReuseWhatTheServerReportsThenTwoConversationsRunAtOnce() async throws {
        try #require(LocalMLXServer.python != nil, "CHATEVAL_MLX_PYTHON is not set: run the tests with `make test`")
        try await LocalMLXServer.run { server in
            do {
                try await OpenAIConnection.waitUntilReady(baseURL: server.baseURL, timeout: 120)
            } catch {
                Issue.record("mlx_lm.server did not start: \(error)\n\(LocalLlamaServer.tail(of: server))")
                return
            }
            let connection = try await OpenAIConnection.open(
                OpenAIConfiguration(baseURL: server.baseURL, modelName: "", requestTimeout: 300))
            #expect(connection.server.engine == "mlx_lm.server")
            #expect(connection.configuration.modelName == "default_model")
            let suites = try ["smoke.yaml", "memory.yaml"].map { try SuiteLoader.load(path: Self.suites.appendingPathComponent($0).path) }
            let record = try await Self.replay(suites, over: connection)
            let together = await Self.twoConversationsAtOnce(over: connection)
            await connection.shutdown()

            // mlx_lm.server batches requests that carry no seed (ChatEval sends none at
            // temperature 0): two conversations at once are both answered in full.
            #expect(together.count == 2)
            for (text, metrics) in together {
                #expect(!text.isEmpty && metrics?.server?.usageReported == true && metrics?.stopReason != nil, "\(text)")
            }

            #expect(record.runtime.engine == "mlx_lm.server" && record.runtime.inProcess == false)
            let conversations = record.suites.flatMap(\.conversations)
            #expect(conversations.count == 5)
            for conversation in conversations {
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
        }
    }

    /// One turn each of two conversations sent at once: their answers and metrics.
    static func twoConversationsAtOnce(over connection: OpenAIConnection) async -> [(String, TurnMetrics?)] {
        let options = GenerationOptions(maxTokens: 16, temperature: 0, seed: 42)
        return await withTaskGroup(of: (String, TurnMetrics?).self) { group in
            for question in ["What is the capital of France?", "Name three primary colors."] {
                let runtime = connection.makeRuntime(streams: 2)
                group.addTask {
                    let result = await OpenAIRuntimeTests.turn(runtime, [.user(question)], options: options)
                    return (result.text, result.metrics)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Replays `suites` over `connection` into a scratch result folder, one repetition, session mode.
    static func replay(_ suites: [Suite], over connection: OpenAIConnection) async throws -> RunRecord {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mlx-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0)
        let record = RunRecord(
            runId: ResultWriter.newRunId(), startedAt: Date(), command: ["test"], git: nil, machine: MachineInfo.current(),
            runtime: connection.identity, modelSha256: nil, settings: settings)
        let writer = try ResultWriter(
            folder: folder, record: record, suites: suites.map { SuiteSource(path: $0.path, text: $0.text) })
        let runner = SuiteRunner(runtime: connection.makeRuntime(), plan: RunPlan(suites: suites, settings: settings))
        return try await runner.run(into: record, writer: writer, stop: StopRequest())
    }
}
