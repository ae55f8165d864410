import ChatEvalCore
import ChatEvalOpenAI
import ChatEvalRuntime
import ChatEvalTestKit
import Foundation
import Testing

/// A real llama-server, built from the same llama.cpp tree as the in-process runtime, serving the
/// default chat model: a multi-turn conversation streams, is measured, and reuses the server's
/// cache from turn 2 in session mode and not at all in cold mode. The server is stopped by its
/// process id whatever happens.
// The time limit bounds a server that hangs; on a 2-core machine running the other real-model
// suites at the same time, one run of this test took over 5 minutes.
@Suite("RealModel llama-server", .serialized, .tags(.realModel), .usesAllCores, .timeLimit(.minutes(15)))
struct RealLlamaServerTests {
    static var model: String? { ProcessInfo.processInfo.environment["CHATEVAL_MODEL"].flatMap { $0.isEmpty ? nil : $0 } }

    static let script = ConversationScript(
        id: "chat", systemPrompt: "You are a helpful assistant. Answer in one sentence.",
        options: GenerationOptions(maxTokens: 24, temperature: 0, seed: 42),
        userMessages: ["What is the capital of France?", "And what river flows through it?", "Name one famous museum there."]
            .map { TemplateText(literal: $0) })

    @Test func aConversationStreamsIsMeasuredAndReusesTheServersCacheOnlyInSessionMode() async throws {
        let model = try #require(Self.model, "CHATEVAL_MODEL is not set: run the tests with `make test`")
        try await LocalLlamaServer.run(model: model, arguments: ["-c", "2048", "-np", "1", "-t", "2"]) { server in
            guard
                let connection = try await connectionWhenReady(to: server, named: "llama-server", modelName: "smollm2", requestTimeout: 120)
            else { return }
            let runtime = connection.makeRuntime()
            #expect(connection.server.engine == "llama-server")
            #expect(connection.server.contextSize == 2048)
            #expect(runtime.identity.inProcess == false)

            let session = await ConversationReplayer(runtime: runtime, cacheMode: .session).replay(Self.script)
            let cold = await ConversationReplayer(runtime: runtime, cacheMode: .cold).replay(Self.script)
            await connection.shutdown()

            for turn in session + cold {
                #expect(turn.status == .answered, "\(turn.failure?.description ?? "")")
                #expect(turn.answer?.isEmpty == false)
                let metrics = try #require(turn.metrics)
                #expect((metrics.server?.contentDeltas ?? 0) > 1, "the answer arrived in pieces")
                #expect(metrics.interTokenLatencies.count == (metrics.server?.contentDeltas ?? 0) - 1)
                #expect(metrics.timeToFirstToken > 0 && metrics.timeToFirstToken < metrics.totalTime)
                #expect(metrics.generatedTokens > 0 && metrics.promptTokens > 0)
                #expect(metrics.prefillTime != nil)
                #expect(metrics.server?.promptEvaluatedTokens != nil)
                #expect(metrics.peakResidentBytes == nil)
            }
            let sessionReuse = session.map { $0.metrics?.reusedTokens }
            let coldReuse = cold.map { $0.metrics?.reusedTokens }
            #expect(sessionReuse.first == 0, "turn 1 of a conversation evaluates everything: \(sessionReuse)")
            #expect(sessionReuse.dropFirst().allSatisfy { ($0 ?? 0) > 0 }, "turns 2 and 3 reuse the server's cache: \(sessionReuse)")
            #expect(coldReuse.allSatisfy { $0 == 0 }, "cold mode reuses nothing: \(coldReuse)")
            // Reused tokens are the earlier turns' prompt and answer: most of a later prompt.
            if let third = session.last?.metrics, let reused = third.reusedTokens {
                #expect(Double(reused) / Double(third.promptTokens) > 0.5)
            }
            // The template keeps each history a prefix of the next, as in process (SessionReuseTests):
            // the server serves all it holds — the previous prompt and answer but the last sampled
            // token, never decoded — so every later turn reuses exactly what was reusable, with no
            // one-token miss invented per turn.
            for (index, turn) in session.enumerated().dropFirst() {
                let metrics = try #require(turn.metrics)
                let counts = "turn \(index + 1): reused \(metrics.reusedTokens ?? -1) of \(metrics.reusableTokens ?? -1) reusable"
                #expect(metrics.reusedTokens != nil && metrics.reusedTokens == metrics.reusableTokens, "\(counts)")
                #expect(metrics.reuseMiss == nil && metrics.reuseEfficiency == 1, "\(counts)")
            }
        }
    }
}
