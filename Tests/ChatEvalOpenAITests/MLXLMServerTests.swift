import ChatEvalCore
import ChatEvalOpenAI
import ChatEvalRuntime
import ChatEvalTestKit
import Foundation
import Testing

/// The served runtime against a loopback server that answers as mlx_lm.server 0.32.2 does (its
/// source, mlx_lm/server.py, and its answers to curl): Python's `http.server` (`Server:
/// BaseHTTP/…`), no `/props`, a `/v1/models` that answers 200 with an empty body when the model
/// hub's cache folder does not exist, `: keepalive` comments during prefill, every piece with
/// its role, `usage` in a chunk of its own with `cached_tokens`, errors as `{"error": "text"}`.
@Suite(.timeLimit(.minutes(1))) struct MLXLMServerTests {
    static let pythonServer = ["Server": "BaseHTTP/0.6 Python/3.11.7"]
    static let routes: [String: FakeChatServer.Reply] = ["/v1/models": .status(200, body: "", headers: pythonServer)]

    /// An answer as mlx_lm.server streams it: a prefill comment, one chunk per piece, the finish
    /// chunk, then (asked for with `stream_options.include_usage`) the usage chunk.
    static func events(_ pieces: [String], finish: String = "stop", prompt: Int, cached: Int, completion: Int? = nil) -> [String] {
        let head =
            #"{"id":"chatcmpl-1","system_fingerprint":"0.32.2-0.32.4-Linux","object":"chat.completion.chunk","#
            + #""model":"default_model","created":1,"choices":[{"index":0,"#
        var events = pieces.map { piece in
            head + #""finish_reason":null,"delta":{"role":"assistant","content":\#(quoted(piece))}}]}"#
        }
        events.append(head + #""finish_reason":"\#(finish)","delta":{"role":"assistant"}}]}"#)
        let usage =
            #"{"prompt_tokens":\#(prompt),"completion_tokens":\#(completion ?? pieces.count + 1),"#
            + #""total_tokens":0,"prompt_tokens_details":{"cached_tokens":\#(cached)}}"#
        events.append(#"{"id":"chatcmpl-1","object":"chat.completion","model":"default_model","choices":[],"usage":\#(usage)}"#)
        events.append("[DONE]")
        return events
    }

    static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data(#""""#.utf8), as: UTF8.self)
    }

    static func open(_ server: FakeChatServer) async throws -> OpenAIConnection {
        var configuration = OpenAIRuntimeTests.configuration(server)
        configuration.modelName = ""
        return try await OpenAIConnection.open(configuration)
    }

    @Test func itIsToldApartAndAskedForItsDefaultModelWithoutSeedOrStopWhenGreedy() async throws {
        let replies: [FakeChatServer.Reply] = [
            .events(Self.events(["The", " capital", " of", " France", " is", " Paris", "."], prompt: 33, cached: 0)),
            .events(Self.events(["Rome", "."], prompt: 55, cached: 41)),
            .events(Self.events(["ok"], prompt: 60, cached: 50)),
        ]
        try await FakeChatServer.run(replies: replies, routes: Self.routes) { server in
            let connection = try await Self.open(server)
            defer { Task { await connection.shutdown() } }
            #expect(connection.server.engine == "mlx_lm.server")
            #expect(connection.server.isMLXLMServer && !connection.sendsCacheControl)
            #expect(connection.configuration.modelName == "default_model")
            let runtime = connection.makeRuntime()
            await runtime.beginConversation(id: "capitals")
            let greedy = GenerationOptions(maxTokens: 32, temperature: 0, seed: 42, stop: ["\n\n"])
            let first = await OpenAIRuntimeTests.turn(runtime, [.user("What is the capital of France?")], options: greedy)
            let history: [ChatMessage] = [.user("What is the capital of France?"), .assistant(first.text), .user("And of Italy?")]
            let second = await OpenAIRuntimeTests.turn(runtime, history, options: greedy)
            let sampled = GenerationOptions(maxTokens: 32, temperature: 0.7, seed: 42)
            _ = await OpenAIRuntimeTests.turn(runtime, history + [.assistant(second.text), .user("Thanks")], options: sampled)

            // The real server's first answer to this prompt, with its counts (the end token counted).
            #expect(first.text == "The capital of France is Paris.")
            let one = try #require(first.metrics)
            #expect(one.promptTokens == 33 && one.reusedTokens == 0 && one.generatedTokens == 8)
            #expect(one.stopReason == .endOfGeneration && one.server?.usageReported == true)
            // Its cache keeps the whole sequence, the last sampled token included: 33 + 8 = 41 was
            // reusable, and reusing 41 is no miss.
            let two = try #require(second.metrics)
            #expect(two.reusedTokens == 41 && two.reusableTokens == 41 && two.reuseMiss == nil && two.reuseEfficiency == 1)

            let bodies = await server.chatRequests.compactMap(\.json)
            #expect(bodies.map { $0["model"] as? String } == ["default_model", "default_model", "default_model"])
            // A seed makes mlx_lm.server serve the request alone instead of batching it: sent only when it matters.
            #expect(bodies.map { $0["seed"] as? Int } == [nil, nil, 42])
            #expect(bodies.allSatisfy { $0["stop"] == nil && $0["cache_prompt"] == nil })
            #expect(bodies.allSatisfy { ($0["stream_options"] as? [String: Any])?["include_usage"] as? Bool == true })
        }
    }

    /// mlx_lm.server stops at a stop string only when the model generates the string's own
    /// tokens; otherwise it deletes the string from the text and goes on ("The capital of France
    /// is ." for the stop string "Paris"). ChatEval does not send it: it finds the string itself,
    /// ends the answer there and closes the stream, as llama-server would have stopped.
    @Test func aStopStringEndsTheAnswerWhereItStandsAndReadingStopsThere() async throws {
        let runaway = Self.events(["The", " capital", " is", " Paris", ".", " It", " is", " big", "."], prompt: 30, cached: 0)
        // The rest of the answer comes 20 s later: longer than the turn may take (10 s).
        let parts: [FakeChatServer.Part] =
            [.text(": keepalive 30/30\n\n")] + runaway.prefix(4).map { .text("data: \($0)\n\n") } + [.pause(.seconds(20))]
            + runaway.dropFirst(4).map { .text("data: \($0)\n\n") }
        try await FakeChatServer.run(replies: [.script(parts)], routes: Self.routes) { server in
            let connection = try await Self.open(server)
            defer { Task { await connection.shutdown() } }
            let options = GenerationOptions(maxTokens: 32, temperature: 0, stop: ["Paris"])
            let result = await OpenAIRuntimeTests.turn(connection.makeRuntime(), [.user("Capital of France?")], options: options)

            #expect(result.failure == nil, "\(result.failure?.description ?? "")")
            #expect(result.text == "The capital is ")
            let metrics = try #require(result.metrics)
            #expect(metrics.stopReason == .stopString)
            #expect(metrics.generatedTokens == 4, "the pieces read up to the stop string")
            // The usage chunk, after the pieces it was not waited for, never came: unknown, not 0.
            #expect(metrics.server?.usageReported == false && metrics.reusedTokens == nil)
            #expect(metrics.totalTime < 10, "reading stopped at the 4th piece, not at the end of the stream")
            #expect(await server.chatRequests.first?.json?["stop"] == nil)
        }
    }

    /// Its errors are `{"error": "text"}`: 400 for a field it rejects, 404 when the model the
    /// request names cannot be loaded (offline, not on disk).
    @Test(arguments: [
        (400, #"{"error": "max_tokens must be at least 1"}"#, "max_tokens must be at least 1"),
        (
            404, #"{"error": "Cannot find an appropriate cached snapshot folder for the specified revision on the local disk"}"#,
            "Cannot find an appropriate cached snapshot folder"
        ),
    ])
    func itsErrorsAreTypedWithTheirMessage(status: Int, body: String, said: String) async throws {
        try await FakeChatServer.run(replies: [.status(status, body: body, headers: Self.pythonServer)], routes: Self.routes) { server in
            let connection = try await Self.open(server)
            defer { Task { await connection.shutdown() } }
            let result = await OpenAIRuntimeTests.turn(connection.makeRuntime(), [.user("Hi")])
            let failure = try #require(result.failure)
            #expect(failure.code == .httpError)
            #expect(failure.message.contains("HTTP \(status)") && failure.message.contains(said), "\(failure.message)")
        }
    }

    @Test func aServerNamingItsModelsIsAskedForTheOneItLists() async throws {
        let models = FakeChatServer.Reply.status(
            200, body: #"{"object":"list","data":[{"id":"/models/smol-mlx","object":"model","created":1}]}"#, headers: Self.pythonServer)
        try await FakeChatServer.run(replies: [.events(Self.events(["Hi"], prompt: 9, cached: 0))], routes: ["/v1/models": models]) {
            server in
            let connection = try await Self.open(server)
            defer { Task { await connection.shutdown() } }
            #expect(connection.server.engine == "mlx_lm.server")
            #expect(connection.configuration.modelName == "/models/smol-mlx")
            _ = await OpenAIRuntimeTests.turn(connection.makeRuntime(), [.user("Hello")])
            #expect(await server.chatRequests.first?.json?["model"] as? String == "/models/smol-mlx")
        }
    }

    /// A Python server that lists a model with an owner is not taken for mlx_lm.server.
    @Test func anotherPythonServerKeepsTheSeedAndTheStopStrings() async throws {
        let models = FakeChatServer.Reply.status(
            200, body: #"{"object":"list","data":[{"id":"m","owned_by":"someone"}]}"#, headers: Self.pythonServer)
        try await FakeChatServer.run(replies: [.events(Self.events(["Hi"], prompt: 9, cached: 0))], routes: ["/v1/models": models]) {
            server in
            let connection = try await Self.open(server)
            defer { Task { await connection.shutdown() } }
            #expect(connection.server.engine == "openai-compatible")
            let options = GenerationOptions(maxTokens: 8, temperature: 0, seed: 3, stop: ["END"])
            _ = await OpenAIRuntimeTests.turn(connection.makeRuntime(), [.user("Hello")], options: options)
            let body = try #require(await server.chatRequests.first?.json)
            #expect(body["seed"] as? Int == 3 && body["stop"] as? [String] == ["END"])
        }
    }
}
