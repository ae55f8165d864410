import ChatEvalCore
import ChatEvalOpenAI
import ChatEvalRuntime
import ChatEvalTestKit
import Foundation
import Testing

/// The served runtime against a scripted loopback server: what it sends, what it measures, how
/// it fails.
@Suite(.timeLimit(.minutes(1))) struct OpenAIRuntimeTests {
    static let props = FakeChatServer.Reply.status(
        200,
        body: #"{"build_info":"b1234-test","total_slots":2,"default_generation_settings":{"n_ctx":2048},"chat_template":"{{ messages }}"}"#)
    static let models = FakeChatServer.Reply.status(
        200,
        body: #"{"object":"list","data":[{"id":"smol","owned_by":"llamacpp","meta":{"n_ctx":2048,"n_params":134515008,"size":96576768}}]}"#)
    static let llamaServerRoutes = ["/props": props, "/v1/models": models]

    static func configuration(_ server: FakeChatServer, _ change: (inout OpenAIConfiguration) -> Void = { _ in }) -> OpenAIConfiguration {
        var configuration = OpenAIConfiguration(
            baseURL: server.baseURL, modelName: "smol", requestTimeout: 10, connectTimeout: 2,
            retry: RetryPolicy(maximumRetries: 2, initialDelay: 0.01, maximumDelay: 0.05))
        change(&configuration)
        return configuration
    }

    /// Collects a turn: its text and metrics, or its failure.
    static func turn(_ runtime: any ChatRuntime, _ messages: [ChatMessage], options: GenerationOptions = GenerationOptions(maxTokens: 16))
        async -> (text: String, metrics: TurnMetrics?, failure: RuntimeFailure?)
    {
        var text = ""
        do {
            for try await event in runtime.respond(to: messages, options: options) {
                switch event {
                case .chunk(let piece): text += piece
                case .info(let metrics): return (text, metrics, nil)
                }
            }
            return (text, nil, nil)
        } catch {
            return (text, nil, error as? RuntimeFailure)
        }
    }

    @Test func aStreamedTurnIsMeasuredFromItsPiecesAndTheServersOwnFigures() async throws {
        let events = FakeChatServer.llamaServerEvents(["Par", "is", "."], promptTokens: 30, cached: 12)
        try await FakeChatServer.run(
            replies: [.events(events, gap: .milliseconds(20), headers: ["X-Backend": "node-7"])],
            routes: Self.llamaServerRoutes
        ) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server) { $0.backendHeader = "X-Backend" })
            defer { Task { await connection.shutdown() } }
            let runtime = connection.makeRuntime()
            let result = await Self.turn(runtime, [.system("Be brief."), .user("Capital of France?")])

            #expect(result.failure == nil)
            #expect(result.text == "Paris.")
            let metrics = try #require(result.metrics)
            #expect(metrics.promptTokens == 30)
            #expect(metrics.reusedTokens == 12)
            #expect(metrics.generatedTokens == 3)
            #expect(metrics.interTokenLatencies.count == 2)
            // The server waits 20 ms before each event, so the last piece (the 4th event) cannot arrive before 80 ms;
            // a loaded machine may deliver two pieces in one read (a 0 gap), never earlier.
            #expect(metrics.timeToFirstToken + metrics.interTokenLatencies.reduce(0, +) >= 0.075)
            #expect(metrics.timeToFirstToken >= 0.035)  // role chunk + first piece: 40 ms
            #expect(metrics.totalTime >= metrics.timeToFirstToken + metrics.decodeTime)
            #expect(metrics.prefillTime == 0.0125)
            #expect(metrics.peakResidentBytes == nil)
            #expect(metrics.server?.backend == "node-7")
            #expect(metrics.server?.promptEvaluatedTokens == 18)
            #expect(metrics.server?.decodeTokensPerSecond == 100)
            #expect(metrics.stopReason == .endOfGeneration)
            #expect(metrics.retries == nil)
            #expect(!runtime.runsInProcess)
            #expect(runtime.identity.engine == "llama-server")
            #expect(runtime.identity.build == "b1234-test")
            #expect(runtime.identity.contextSize == 2048)
            #expect(runtime.identity.model.parameters == 134_515_008)
            #expect(runtime.identity.inProcess == false)
            #expect(runtime.identity.chatTemplateHash?.count == 64)
        }
    }

    @Test func eachTurnSendsTheWholeHistoryAndOnlyAFreshTurnDisablesLlamaServersCache() async throws {
        let replies = (0..<3).map { _ in FakeChatServer.Reply.events(FakeChatServer.llamaServerEvents(["ok"])) }
        try await FakeChatServer.run(replies: replies, routes: Self.llamaServerRoutes) { server in
            let connection = try await OpenAIConnection.open(
                Self.configuration(server) { $0.extraFields = ["repeat_penalty": .number(1.1)] })
            defer { Task { await connection.shutdown() } }
            let runtime = connection.makeRuntime()
            await runtime.beginConversation(id: "c1")
            let history: [ChatMessage] = [.system("S"), .user("one")]
            _ = await Self.turn(runtime, history, options: GenerationOptions(maxTokens: 7, temperature: 0, seed: 9, stop: ["END"]))
            _ = await Self.turn(runtime, history + [.assistant("ok"), .user("two")])
            await runtime.resetSession()
            _ = await Self.turn(runtime, history + [.assistant("ok"), .user("two"), .assistant("ok"), .user("three")])

            let bodies = await server.chatRequests.compactMap(\.json)
            #expect(bodies.count == 3)
            #expect(bodies.map { ($0["messages"] as? [Any])?.count } == [2, 4, 6])
            #expect(bodies.map { $0["cache_prompt"] as? Bool } == [false, nil, false])
            let first = bodies[0]
            #expect(first["stream"] as? Bool == true)
            #expect((first["stream_options"] as? [String: Any])?["include_usage"] as? Bool == true)
            #expect(first["max_tokens"] as? Int == 7)
            #expect(first["seed"] as? Int == 9)
            #expect(first["stop"] as? [String] == ["END"])
            #expect(first["model"] as? String == "smol")
            #expect(first["repeat_penalty"] as? Double == 1.1)
            #expect(first["top_k"] == nil)
        }
    }

    @Test func aServerThatIsNotLlamaServerGetsNoCacheFieldAndReuseStaysUnknown() async throws {
        let events = FakeChatServer.llamaServerEvents(["Hi"], promptTokens: 9, cached: nil, includeTimings: false)
        try await FakeChatServer.run(replies: [.events(events)]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            #expect(connection.server.engine == "openai-compatible")
            let result = await Self.turn(connection.makeRuntime(), [.user("Hello")])
            let metrics = try #require(result.metrics)
            #expect(metrics.promptTokens == 9)
            #expect(metrics.reusedTokens == nil)  // unknown, not 0
            #expect(metrics.reuseRatio == nil)
            #expect(metrics.prefillTime == nil)
            #expect(await server.chatRequests.first?.json?["cache_prompt"] == nil)
        }
    }

    @Test func theAffinityKeyTravelsInTheHeaderAndUserFieldAndChangesWithTheConversation() async throws {
        let replies = (0..<3).map { _ in FakeChatServer.Reply.events(FakeChatServer.llamaServerEvents(["ok"])) }
        try await FakeChatServer.run(replies: replies) { server in
            let connection = try await OpenAIConnection.open(
                Self.configuration(server) {
                    $0.affinity = OpenAIConfiguration.Affinity(header: "X-Session", userField: true)
                })
            defer { Task { await connection.shutdown() } }
            let runtime = connection.makeRuntime()
            await runtime.beginConversation(id: "first chat")
            _ = await Self.turn(runtime, [.user("a")])
            _ = await Self.turn(runtime, [.user("a"), .assistant("ok"), .user("b")])
            await runtime.beginConversation(id: "second")
            _ = await Self.turn(runtime, [.user("c")])

            let requests = await server.chatRequests
            let headers = requests.map { $0.headers["x-session"] }
            #expect(headers[0] != nil && headers[0] == headers[1] && headers[1] != headers[2])
            #expect(headers[0]?.hasPrefix("chateval-firstchat-") == true)
            #expect(requests.map { $0.json?["user"] as? String } == headers)
        }
    }

    @Test func aRateLimitedTurnWaitsForRetryAfterThenAnswersAndRecordsTheRetry() async throws {
        let replies: [FakeChatServer.Reply] = [
            .status(429, body: #"{"error":{"message":"slow down","type":"rate_limit_error"}}"#, headers: ["Retry-After": "1"]),
            .events(FakeChatServer.llamaServerEvents(["fine"])),
        ]
        try await FakeChatServer.run(replies: replies) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let started = ContinuousClock.now
            let result = await Self.turn(connection.makeRuntime(), [.user("Hello")])
            let waited = ContinuousClock.now - started

            #expect(result.text == "fine")
            let retries = try #require(result.metrics?.retries)
            #expect(retries.count == 1)
            #expect(retries[0].code == .rateLimited)
            #expect(retries[0].retryAfter == 1)
            #expect(retries[0].delay == 1)
            #expect(retries[0].message.contains("slow down"))
            #expect(waited >= .seconds(1))
            // Timed from the answering attempt: the 1 s wait and the refused attempt are not in it
            // (a bound relative to the whole wait, so that a slow machine does not fail it).
            let timeToFirstToken = try #require(result.metrics?.timeToFirstToken)
            #expect(.seconds(timeToFirstToken) < waited - .seconds(1))
            #expect(await server.chatRequests.count == 2)
        }
    }

    @Test func anUnavailableServerFailsAfterTheRetryBoundWithEveryRetryRecorded() async throws {
        try await FakeChatServer.run(
            replies: [], fallback: .status(503, body: #"{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}"#)
        ) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let result = await Self.turn(connection.makeRuntime(), [.user("Hello")])
            let failure = try #require(result.failure)
            #expect(failure.code == .unavailable)
            #expect(failure.message.contains("Loading model"))
            #expect(failure.retries?.count == 2)
            #expect(failure.retries?.map(\.attempt) == [1, 2])
            #expect(await server.chatRequests.count == 3)
        }
    }

    @Test(arguments: [
        #"{"error":{"code":400,"message":"request (3046 tokens) exceeds the available context size (2048 tokens), try increasing it","#
            + #""type":"exceed_context_size_error","n_prompt_tokens":3046,"n_ctx":2048}}"#,
        #"{"error":{"message":"This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens.","#
            + #""type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
        #"{"object":"error","message":"This model's maximum context length is 2048 tokens. However, you requested 2100 tokens","#
            + #""type":"BadRequestError","param":null,"code":400}"#,
    ])
    func contextWindowErrorsOfEveryShapeAreContextOverflowAndNotRetried(body: String) async throws {
        try await FakeChatServer.run(replies: [.status(400, body: body)]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("long")]).failure)
            #expect(failure.code == .contextOverflow)
            #expect(failure.retries == nil)
            #expect(await server.chatRequests.count == 1)
            if body.contains("n_ctx") { #expect(failure.message == "the prompt has 3046 tokens and the server's context holds 2048") }
        }
    }

    @Test func aStreamCutMidAnswerIsInterruptedAndNotRetried() async throws {
        let events = Array(FakeChatServer.llamaServerEvents(["Once", " upon"]).prefix(3))
        try await FakeChatServer.run(replies: [.cut(events)]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("story")]).failure)
            #expect(failure.code == .streamInterrupted)
            #expect(await server.chatRequests.count == 1)
        }
    }

    @Test func malformedJSONInAChunkIsAMalformedStream() async throws {
        var events = FakeChatServer.llamaServerEvents(["a", "b"])
        events[2] = #"{"choices":[{"delta":{"content":"b"#
        try await FakeChatServer.run(replies: [.events(events)]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("x")]).failure)
            #expect(failure.code == .malformedStream)
            #expect(failure.message.contains("chunk 2"))
        }
    }

    @Test func aSlowServerHitsTheRequestTimeout() async throws {
        try await FakeChatServer.run(replies: [.stall]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server) { $0.requestTimeout = 2 })
            defer { Task { await connection.shutdown() } }
            let started = ContinuousClock.now
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("x")]).failure)
            #expect(failure.code == .timeout)
            // Ended by the 2 s timeout, long before the server's 30 s stall would have ended it.
            #expect(ContinuousClock.now - started < FakeChatServer.maximumStall / 2)
        }
    }

    @Test func aRefusalTheAPIMarksIsATypedFailure() async throws {
        let events = [
            #"{"choices":[{"index":0,"delta":{"role":"assistant","refusal":"I can't help with that."},"finish_reason":null}]}"#,
            #"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":6}}"#,
            "[DONE]",
        ]
        try await FakeChatServer.run(replies: [.events(events)]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("x")]).failure)
            #expect(failure.code == .refused)
            #expect(failure.message.contains("I can't help with that."))
        }
    }

    @Test func anErrorInsideTheStreamIsReportedAsTheServerSaidIt() async throws {
        let events = [#"{"error":{"code":500,"message":"slot crashed","type":"server_error"}}"#]
        try await FakeChatServer.run(replies: [.events(events)]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("x")]).failure)
            #expect(failure.code == .httpError)
            #expect(failure.message.contains("slot crashed"))
        }
    }

    @Test func aServerThatIsNotThereCannotBeOpened() async throws {
        let port = try await LocalLlamaServer.freePort()
        let configuration = OpenAIConfiguration(baseURL: "http://127.0.0.1:\(port)", modelName: "m", connectTimeout: 0.5)
        await #expect(throws: OpenAIConnectionError.self) { try await OpenAIConnection.open(configuration) }
    }

    @Test func theAPIKeyIsReadFromTheNamedVariableAndSentAsABearerToken() async throws {
        try await FakeChatServer.run(replies: [.events(FakeChatServer.llamaServerEvents(["ok"]))]) { server in
            let configuration = Self.configuration(server) { $0.apiKeyVariable = "TEST_KEY_VARIABLE" }
            await #expect(throws: OpenAIConnectionError.self) { try await OpenAIConnection.open(configuration, environment: [:]) }
            let connection = try await OpenAIConnection.open(configuration, environment: ["TEST_KEY_VARIABLE": "sk-secret-123"])
            defer { Task { await connection.shutdown() } }
            _ = await Self.turn(connection.makeRuntime(), [.user("x")])
            #expect(await server.chatRequests.first?.headers["authorization"] == "Bearer sk-secret-123")
            #expect(!String(describing: connection.identity).contains("sk-secret-123"))
            #expect(!String(describing: connection.configuration).contains("sk-secret-123"))
        }
    }

    @Test func cancellingTheConsumerEndsTheTurnAsCancelled() async throws {
        try await FakeChatServer.run(replies: [.stall]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let runtime = connection.makeRuntime()
            let replayer = ConversationReplayer(runtime: runtime)
            let script = ConversationScript(id: "c", userMessages: [TemplateText(literal: "hello")])
            let task = Task { await replayer.replay(script) }
            try await Task.sleep(for: .milliseconds(300))
            task.cancel()
            let turns = await task.value
            #expect(turns.first?.failure?.code == .cancelled)
        }
    }

    // MARK: Served turns bounded by what the suite asked (each of these failed before)

    /// A server that ignores max_tokens streamed until the request timeout (4.2 M characters in
    /// 40 s): read up to the bound, the stream closed, the turn answered and cut at max_tokens.
    @Test func aServerIgnoringMaxTokensIsReadUpToTheBoundAndCut() async throws {
        let piece = #"{"choices":[{"finish_reason":null,"index":0,"delta":{"content":"la "}}],"object":"chat.completion.chunk"}"#
        try await FakeChatServer.run(replies: [.endless(piece, gap: .zero)]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let started = ContinuousClock.now
            let result = await Self.turn(connection.makeRuntime(), [.user("Sing.")], options: GenerationOptions(maxTokens: 16))
            // Ended by the bound, not by the 10 s request timeout (which fails the turn: checked
            // below). 5.2 s beside a full test run on 2 cores, 11.6 s at load 7: the time is only
            // bounded against an endless read, with room for a loaded runner.
            #expect(ContinuousClock.now - started < .seconds(30))
            #expect(result.failure == nil)
            let metrics = try #require(result.metrics)
            #expect(metrics.stopReason == .maxTokens)
            #expect(metrics.server?.cutAtMaxTokens == true)
            #expect(metrics.generatedTokens == OpenAIChatRuntime.answerBound(maxTokens: 16).pieces)
            #expect(result.text.count <= OpenAIChatRuntime.answerBound(maxTokens: 16).pieces * 3)
        }
    }

    /// Headers at one byte a second held a turn for the whole request timeout (600 s): now the
    /// stall bound ends it.
    @Test func aServerTricklingItsHeadHitsTheStallBound() async throws {
        try await FakeChatServer.run(replies: [.tricklingHead(gap: .milliseconds(300))]) { server in
            let connection = try await OpenAIConnection.open(
                Self.configuration(server) {
                    $0.stallTimeout = 1.5
                    $0.requestTimeout = 30
                })
            defer { Task { await connection.shutdown() } }
            let started = ContinuousClock.now
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("Hi")]).failure)
            #expect(failure.code == .timeout)
            #expect(failure.message.contains("stall bound"))
            // Well before the 30 s request timeout, with room for a loaded machine (a 5 s bound took 6.1 s beside compiles).
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }

    /// Reuse over HTTP: what the previous request left in the server's cache is what the next
    /// could reuse — its prompt and its answer but the last sampled token, which llama-server
    /// counts in `predicted_n` and never decodes, whether the answer ended at an end-of-generation
    /// token ("stop") or at `max_tokens` ("length"). A server that serves less says nothing of
    /// why: "server-side". A fresh session has nothing reusable. (The fake once assumed the whole
    /// answer cached: every real turn showed an invented one-token miss.)
    @Test(arguments: ["stop", "length"])
    func servedReuseIsAccountedFromTheServersOwnCounts(finish: String) async throws {
        let replies = [
            FakeChatServer.Reply.events(FakeChatServer.llamaServerEvents(["Hi", "."], finish: finish, promptTokens: 20, cached: 0)),
            .events(FakeChatServer.llamaServerEvents(["Yes", "."], finish: finish, promptTokens: 40, cached: 21)),
            .events(FakeChatServer.llamaServerEvents(["No", "."], finish: finish, promptTokens: 60, cached: 10)),
        ]
        try await FakeChatServer.run(replies: replies) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let runtime = connection.makeRuntime()
            await runtime.beginConversation(id: "c")
            let first = try #require(await Self.turn(runtime, [.user("Hi")]).metrics)
            #expect(first.reusableTokens == nil && first.reuseEfficiency == nil)
            let second = try #require(await Self.turn(runtime, [.user("Hi"), .assistant("Hi."), .user("And?")]).metrics)
            // 20 + 2 generated − the last one, sampled and never decoded: all of it served, no miss.
            #expect(second.reusableTokens == 21 && second.reuseEfficiency == 1 && second.reuseMiss == nil)
            let third = try #require(
                await Self.turn(runtime, [.user("Hi"), .assistant("Hi."), .user("And?"), .assistant("Yes."), .user("So?")]).metrics)
            #expect(third.reusableTokens == 41)  // 40 + 2 − 1
            #expect(third.reuseMiss?.cause == .serverSide && third.missedTokens == 31)
        }
    }

    /// `--cache-mode cold` over HTTP: the turn goes out with `cache_prompt: false`, what the
    /// previous request left is still counted as reusable, and the miss's cause is the cache
    /// mode, not the server.
    @Test func aColdTurnAsksNotToReuseAndCountsWhatItCouldHave() async throws {
        let replies = [
            FakeChatServer.Reply.events(FakeChatServer.llamaServerEvents(["Hi", "."], promptTokens: 20, cached: 0)),
            .events(FakeChatServer.llamaServerEvents(["Yes", "."], promptTokens: 40, cached: 0)),
        ]
        try await FakeChatServer.run(replies: replies, routes: Self.llamaServerRoutes) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let runtime = connection.makeRuntime()
            await runtime.beginConversation(id: "c")
            await runtime.evaluateNextTurnCold()
            let first = try #require(await Self.turn(runtime, [.user("Hi")]).metrics)
            #expect(first.reusableTokens == nil && first.reuseMiss == nil, "nothing was cached before the first turn")
            await runtime.evaluateNextTurnCold()
            let second = try #require(await Self.turn(runtime, [.user("Hi"), .assistant("Hi."), .user("And?")]).metrics)
            #expect(second.reusableTokens == 21 && second.reuseEfficiency == 0)
            #expect(second.reuseMiss?.cause == .coldCache && second.missedTokens == 21)
            let bodies = await server.chatRequests.compactMap(\.json)
            #expect(bodies.map { $0["cache_prompt"] as? Bool } == [false, false])
        }
    }

    /// A server that cannot be told to skip its cache: what it did not serve is its own doing.
    @Test func aColdTurnToAServerWithoutCacheControlLeavesTheCauseToTheServer() async throws {
        let replies = [
            FakeChatServer.Reply.events(FakeChatServer.llamaServerEvents(["Hi", "."], promptTokens: 20, cached: 0)),
            .events(FakeChatServer.llamaServerEvents(["Yes", "."], promptTokens: 40, cached: 10)),
        ]
        try await FakeChatServer.run(replies: replies) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            #expect(!connection.sendsCacheControl)
            let runtime = connection.makeRuntime()
            await runtime.beginConversation(id: "c")
            _ = await Self.turn(runtime, [.user("Hi")])
            await runtime.evaluateNextTurnCold()
            let second = try #require(await Self.turn(runtime, [.user("Hi"), .assistant("Hi."), .user("And?")]).metrics)
            #expect(second.reusableTokens == 21 && second.reuseMiss?.cause == .serverSide)
        }
    }

    @Test func aStreamThatGoesQuietHitsTheStallBound() async throws {
        try await FakeChatServer.run(replies: [.stall]) { server in
            let connection = try await OpenAIConnection.open(
                Self.configuration(server) {
                    $0.stallTimeout = 1
                    $0.requestTimeout = 30
                })
            defer { Task { await connection.shutdown() } }
            let started = ContinuousClock.now
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("Hi")]).failure)
            // Failed once in CI as a cancellation: the consumer, starved on a loaded runner, moved
            // the last-progress time after libcurl had stopped for the stall (now latched).
            #expect(failure.code == .timeout, "\(failure.code): \(failure.message)")
            #expect(failure.message.contains("no progress for 1 s"), "\(failure.message)")
            // Well before the 30-s request bound (4 s failed at 5.8 s beside a full test run).
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }

    /// An HTML error page labelled text/event-stream was `stream_interrupted`.
    @Test func htmlLabelledAsAnEventStreamIsAMalformedStream() async throws {
        let html = "<!DOCTYPE html><html><body>Oops</body></html>\r\n"
        let page = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: \(html.utf8.count)\r\n\r\n" + html
        try await FakeChatServer.run(replies: [.raw(Data(page.utf8))]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("Hi")]).failure)
            #expect(failure.code == .malformedStream)
            #expect(failure.message.contains("<!DOCTYPE html>"))
        }
    }

    /// 2 MB of response headers was `unavailable`, and retried.
    @Test func hugeResponseHeadersAreMalformedAndNotRetried() async throws {
        let filler = (0..<40_000).map { "X-Filler-\($0): \(String(repeating: "a", count: 40))" }.joined(separator: "\r\n")
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\(filler)\r\n\r\n"
        try await FakeChatServer.run(replies: [.raw(Data(head.utf8))]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("Hi")]).failure)
            #expect(failure.code == .malformedStream)
            #expect(failure.message.contains("KiB of response headers"))
            #expect(failure.retries == nil)
            #expect(await server.chatRequests.count == 1)
        }
    }

    /// An out-of-range `usage` figure dropped an answer that had arrived whole.
    @Test func anOutOfRangeUsageFigureCostsTheFigureNotTheAnswer() async throws {
        var events = FakeChatServer.llamaServerEvents(["Par", "is"], includeTimings: false)
        events[events.count - 2] = #"{"choices":[],"usage":{"completion_tokens":1e30,"prompt_tokens":-4,"total_tokens":"many"}}"#
        try await FakeChatServer.run(replies: [.events(events)]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let result = await Self.turn(connection.makeRuntime(), [.user("Capital of France?")])
            #expect(result.failure == nil && result.text == "Paris")
            let metrics = try #require(result.metrics)
            #expect(metrics.generatedTokens == 2)  // the pieces: the figure was unusable
            #expect(metrics.server?.usageReported == false)
        }
    }

    /// A refused port took 43 s to report.
    @Test func aRefusedPortIsReportedAtOnce() async throws {
        let port = try await LocalLlamaServer.freePort()
        var configuration = OpenAIConfiguration(
            baseURL: "http://127.0.0.1:\(port)/v1", modelName: "m", requestTimeout: 10, connectTimeout: 2,
            retry: RetryPolicy.none)
        configuration.retry = .none
        let started = ContinuousClock.now
        await #expect(throws: OpenAIConnectionError.self) { _ = try await OpenAIConnection.open(configuration) }
        #expect(ContinuousClock.now - started < .seconds(5), "a refused connection is reported at once (it took 43 s)")
    }

    /// A Retry-After longer than a turn waits ends the turn at once, saying so.
    @Test func aRetryAfterLongerThanTheLimitFailsAtOnceAndSaysWhy() async throws {
        try await FakeChatServer.run(replies: [.status(429, body: #"{"error":{"message":"later"}}"#, headers: ["Retry-After": "3600"])]) {
            server in
            let connection = try await OpenAIConnection.open(Self.configuration(server))
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("Hi")]).failure)
            #expect(failure.code == .rateLimited)
            #expect(failure.message.contains("asked to retry after 3600 s, longer than the 60 s a turn waits: not retried"))
        }
    }

    /// A server echoing the API key in an error body: the key never reaches what is written or printed.
    @Test func anEchoedAPIKeyIsRedacted() async throws {
        let key = "sk-test-\(UUID().uuidString)"
        try await FakeChatServer.run(replies: [.status(401, body: #"{"error":{"message":"invalid key \#(key)"}}"#)]) { server in
            let connection = try await OpenAIConnection.open(
                Self.configuration(server) { $0.apiKeyVariable = "CHATEVAL_TEST_KEY" },
                environment: ["CHATEVAL_TEST_KEY": key])
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("Hi")]).failure)
            #expect(failure.message.contains("invalid key"), "the failure carries what the server said")
            #expect(!failure.message.contains(key) && failure.message.contains(Secrets.placeholder), "redacted where it is made")
        }
    }

    /// A credential sent as a request field (`--request-field api_key=…`) and echoed by the server
    /// is redacted as the API key is.
    @Test func anEchoedRequestFieldSecretIsRedacted() async throws {
        let secret = "rf-\(UUID().uuidString)"
        try await FakeChatServer.run(replies: [.status(400, body: #"{"error":{"message":"bad api_key \#(secret)"}}"#)]) { server in
            let connection = try await OpenAIConnection.open(Self.configuration(server) { $0.extraFields = ["api_key": .string(secret)] })
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("Hi")]).failure)
            #expect(!failure.message.contains(secret) && failure.message.contains(Secrets.placeholder), "\(failure.message)")
        }
    }

    /// Issue 28, finding 10: server text was cut (300 characters, 120 for a chunk that is not
    /// JSON, 200 for a refusal; an error body first to 400 bytes) before it was redacted, so a
    /// key straddling the cut was kept minus its end — in the failure, and so in the result
    /// file, every report and the terminal. The key in each place a server's text is quoted.
    @Test(arguments: ["error message", "error body", "chunk", "refusal"])
    func aKeyStraddlingTheCutOfServerTextIsRedactedWhole(place: String) async throws {
        let key = "sk-live-\(UUID().uuidString)"
        func straddling(_ cut: Int) -> String { String(repeating: "x", count: cut - 25) + key + " was refused" }
        let reply: FakeChatServer.Reply =
            switch place {
            case "error message": .status(400, body: #"{"error":{"message":"\#(straddling(300))"}}"#)
            case "error body": .status(400, body: String(repeating: "y", count: 100) + straddling(200))
            case "chunk": .events(["not json " + straddling(111)])
            default:
                .events([
                    #"{"choices":[{"index":0,"delta":{"refusal":"\#(straddling(200))"},"finish_reason":null}]}"#,
                    #"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#, "[DONE]",
                ])
            }
        try await FakeChatServer.run(replies: [reply]) { server in
            let connection = try await OpenAIConnection.open(
                Self.configuration(server) { $0.apiKeyVariable = "CHATEVAL_TEST_KEY" }, environment: ["CHATEVAL_TEST_KEY": key])
            defer { Task { await connection.shutdown() } }
            let failure = try #require(await Self.turn(connection.makeRuntime(), [.user("Hi")]).failure)
            #expect(!failure.message.contains(key.prefix(16)), "the key's start is kept: \(failure.message)")
            #expect(failure.message.contains(Secrets.placeholder), "\(failure.message)")
        }
    }

    @Test func configurationProblemsNameTheSetting() {
        let bad = OpenAIConfiguration(
            baseURL: "ftp://x", modelName: "", apiKeyVariable: "A=B", requestTimeout: 0,
            extraFields: ["stream": .bool(false)], affinity: .init(header: "bad header"))
        let problems = bad.problems.joined(separator: "\n")
        for word in ["base URL", "API key variable", "request timeout", "stream", "bad header"] {
            #expect(problems.contains(word), "\(word)")
        }
        #expect(Endpoint("http://127.0.0.1:8080")?.chatCompletions == "http://127.0.0.1:8080/v1/chat/completions")
        #expect(Endpoint("http://h:1/v1/")?.props == "http://h:1/props")
        #expect(Endpoint("https://user:pw@api.example.com/v1?key=s")?.recorded == "https://api.example.com/v1")
    }
}
