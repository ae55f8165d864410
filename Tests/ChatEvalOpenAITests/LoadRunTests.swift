import ChatEvalCore
import ChatEvalOpenAI
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Testing

/// `run --concurrency N` against a loopback server: N conversations really are in flight at once,
/// and the summary counts what was sent.
@Suite(.timeLimit(.minutes(1))) struct LoadRunTests {
    static let suite = """
        name: load
        slo: {ttft_p95: 10s, e2el: 10s}
        conversations:
          - {id: a, turns: ["1", "2"]}
          - {id: b, turns: ["1", "2"]}
          - {id: c, turns: ["1", "2"]}
          - {id: d, turns: ["1", "2"]}
          - {id: e, turns: ["1", "2"]}
        """

    @Test func conversationsRunConcurrentlyAndTheLoadIsSummarised() async throws {
        let suite = try SuiteLoader.parse(Self.suite, file: "load.yaml")
        let reply = FakeChatServer.Reply.events(FakeChatServer.llamaServerEvents(["a", "b", "c", "d"]), gap: .milliseconds(15))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("load-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FakeChatServer.run(replies: Array(repeating: reply, count: 10)) { server in
            let connection = try await OpenAIConnection.open(OpenAIRuntimeTests.configuration(server))
            let settings = RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0)
            let record = RunRecord(
                runId: ResultWriter.newRunId(), startedAt: Date(), command: ["test"], git: nil, machine: MachineInfo.current(),
                runtime: connection.identity, modelSha256: nil, settings: settings)
            let writer = try ResultWriter(folder: folder, record: record, suites: [])
            let runner = try LoadRunner(
                plan: RunPlan(suites: [suite], settings: settings),
                runtimes: [connection.makeRuntime(), connection.makeRuntime()], sweepId: "sweep-1")
            let final = try await runner.run(into: record, writer: writer, stop: StopRequest())
            await connection.shutdown()

            #expect(await server.maximumInFlight == 2)
            #expect(final.suites[0].conversations.map(\.id) == ["a", "b", "c", "d", "e"])  // schedule order, whatever finished first
            let load = try #require(final.load)
            #expect(load.concurrency == 2)
            #expect(load.sweepId == "sweep-1")
            #expect(load.requests == 10)
            #expect(load.failedRequests == 0)
            #expect(load.errorRate == 0)
            #expect(load.timeToFirstToken?.count == 10)
            #expect(load.interTokenLatency?.count == 30)
            #expect(load.goodRequests == 10)
            #expect(load.objectives.map(\.objective) == ["ttft_p95"])
            #expect(load.objectives.first?.met == true)
            // 10 turns of ≥ 75 ms on 2 connections cannot take less than 5 × 75 ms.
            #expect(load.duration >= 0.35)
            #expect(abs(load.requestsPerSecond - 10 / load.duration) < 1e-9)
            #expect(abs(load.outputTokensPerSecond - 40 / load.duration) < 1e-9)
            let onDisk = try ResultWriter.makeDecoder().decode(RunRecord.self, from: Data(contentsOf: writer.resultURL))
            #expect(onDisk.load == load)
        }
    }
}
