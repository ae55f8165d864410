import ChatEvalCore
import ChatEvalOpenAI
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Testing

/// Whole runs against a misbehaving server: each failure is recorded as a typed failure, the run
/// goes on, and every turn measured before and after is in the result file.
@Suite(.timeLimit(.minutes(1))) struct ServedRunTests {
    static let suite = """
        name: served
        conversations:
          - id: before
            turns: ["one", "two"]
          - id: troubled
            turns: ["three", "four"]
          - id: after
            turns: ["five"]
        """

    static let ok = FakeChatServer.Reply.events(FakeChatServer.llamaServerEvents(["fine", "."]))

    enum Scenario: String, CaseIterable, Sendable {
        case rateLimitedThenAnswered, unavailableForever, cutMidAnswer, malformedChunk, slowServer

        /// Replies for the troubled conversation's turns.
        var replies: [FakeChatServer.Reply] {
            switch self {
            case .rateLimitedThenAnswered:
                [.status(429, body: #"{"error":{"message":"busy"}}"#, headers: ["Retry-After": "0"]), ServedRunTests.ok, ServedRunTests.ok]
            case .unavailableForever:
                Array(repeating: .status(503, body: #"{"error":{"message":"Loading model"}}"#), count: 3)
            case .cutMidAnswer:
                [.cut(Array(FakeChatServer.llamaServerEvents(["half"]).prefix(2)))]
            case .malformedChunk:
                [.events([#"{"choices":[{"delta":{"content":"x"}}]}"#, "{not json"])]
            case .slowServer:
                [.stall]
            }
        }

        /// The troubled conversation's first turn fails with this code (nil: it is answered).
        var failure: RuntimeFailure.Code? {
            switch self {
            case .rateLimitedThenAnswered: nil
            case .unavailableForever: .unavailable
            case .cutMidAnswer: .streamInterrupted
            case .malformedChunk: .malformedStream
            case .slowServer: .timeout
            }
        }
    }

    @Test(arguments: Scenario.allCases)
    func theRunGoesOnAfterAFailingTurnAndKeepsEverythingMeasured(_ scenario: Scenario) async throws {
        let replies = [Self.ok, Self.ok] + scenario.replies + [Self.ok]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FakeChatServer.run(replies: replies) { server in
            // The stall needs a timeout to end it; the other turns must not meet theirs on a loaded
            // machine (a 1 s bound timed out the first healthy turn under a parallel `make test`).
            let configuration = OpenAIRuntimeTests.configuration(server) { $0.requestTimeout = scenario == .slowServer ? 3 : 30 }
            let connection = try await OpenAIConnection.open(configuration)
            let (final, resultURL) = try await Self.run(connection, folder: folder)
            await connection.shutdown()

            let onDisk = try ResultWriter.makeDecoder().decode(RunRecord.self, from: Data(contentsOf: resultURL))
            for record in [final, onDisk] {
                #expect(record.status == .complete)
                let conversations = record.suites[0].conversations
                #expect(conversations.map(\.id) == ["before", "troubled", "after"])
                #expect(conversations[0].turns.map(\.status) == [.answered, .answered])
                #expect(conversations[2].turns.map(\.status) == [.answered])
                #expect(conversations[2].turns[0].metrics?.generatedTokens == 2)
                let troubled = conversations[1].turns
                if let code = scenario.failure {
                    #expect(troubled.map(\.status) == [.failed, .skipped])
                    #expect(troubled[0].failure?.code == code)
                } else {
                    #expect(troubled.map(\.status) == [.answered, .answered])
                    #expect(troubled[0].metrics?.retries?.first?.code == .rateLimited)
                }
            }
            #expect(onDisk.runtime.inProcess == false)
            #expect(onDisk.runtime.endpoint == server.baseURL)
        }
    }

    @Test func theAPIKeyIsSentButNeverWrittenToTheJournalOrTheResult() async throws {
        let key = "sk-never-record-\(UUID().uuidString)"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FakeChatServer.run(replies: Array(repeating: Self.ok, count: 5)) { server in
            var configuration = OpenAIRuntimeTests.configuration(server)
            configuration.apiKeyVariable = "CHATEVAL_TEST_API_KEY"
            let connection = try await OpenAIConnection.open(configuration, environment: ["CHATEVAL_TEST_API_KEY": key])
            let journalTexts = JournalTexts()
            let (_, resultURL) = try await Self.run(connection, folder: folder, observer: journalTexts)
            await connection.shutdown()

            #expect(await server.chatRequests.allSatisfy { $0.headers["authorization"] == "Bearer \(key)" })
            let result = try String(contentsOf: resultURL, encoding: .utf8)
            #expect(!result.contains(key))
            #expect(result.contains("CHATEVAL_TEST_API_KEY") == false)  // not even the variable's name is needed in the record
            let journals = await journalTexts.texts
            #expect(journals.count == 5)
            #expect(journals.allSatisfy { !$0.contains(key) && !$0.isEmpty })
        }
    }

    /// Replays the suite over `connection` into a real result folder.
    static func run(_ connection: OpenAIConnection, folder: URL, observer: JournalTexts? = nil) async throws -> (RunRecord, URL) {
        let suite = try SuiteLoader.parse(Self.suite, file: "served.yaml")
        let settings = RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0)
        let record = RunRecord(
            runId: ResultWriter.newRunId(), startedAt: Date(), command: ["test"], git: nil, machine: MachineInfo.current(),
            runtime: connection.identity, modelSha256: nil, settings: settings)
        let writer = try ResultWriter(folder: folder, record: record, suites: [SuiteSource(path: suite.path, text: suite.text)])
        await observer?.watch(writer.journalURL)
        let runner = SuiteRunner(runtime: connection.makeRuntime(), plan: RunPlan(suites: [suite], settings: settings))
        let final = try await runner.run(into: record, writer: writer, stop: StopRequest(), observer: observer)
        return (final, writer.resultURL)
    }
}

/// Reads the run's journal after every turn (it is removed when the run ends).
actor JournalTexts: RunObserver {
    private var url: URL?
    private(set) var texts: [String] = []

    func watch(_ url: URL) { self.url = url }

    func conversationStarted(_ replay: ScheduledReplay, index: Int, of total: Int) async {}

    func turnFinished(_ turn: ReplayedTurn, conversation: String) async {
        guard let url else { return }
        texts.append((try? String(contentsOf: url, encoding: .utf8)) ?? "")
    }
}
