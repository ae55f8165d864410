import ChatEvalCore
import ChatEvalOpenAI
import ChatEvalRuntime
import ChatEvalTestKit
import Foundation
import Testing

/// Hostile streams (issue 28, items 6 and 9): what keeps a turn alive, and what a server may make
/// it hold in memory. Each of these failed before.
extension OpenAIRuntimeTests {
    static let roleChunk =
        #"{"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"object":"chat.completion.chunk"}"#
    /// Three events that carry nothing: an empty delta, empty text, no text.
    static let emptyDeltas = [
        #"{"choices":[{"finish_reason":null,"index":0,"delta":{}}],"object":"chat.completion.chunk"}"#,
        #"{"choices":[{"finish_reason":null,"index":0,"delta":{"content":""}}],"object":"chat.completion.chunk"}"#,
        #"{"choices":[{"finish_reason":null,"index":0,"delta":{"content":null}}],"object":"chat.completion.chunk"}"#,
    ].map { "data: \($0)\n\n" }.joined()

    /// A served turn, with its own stall bound.
    static func turn(_ server: FakeChatServer, stallTimeout: Double, requestTimeout: Double = 10, maxTokens: Int = 16)
        async throws -> (text: String, metrics: TurnMetrics?, failure: RuntimeFailure?)
    {
        let connection = try await OpenAIConnection.open(
            configuration(server) {
                $0.stallTimeout = stallTimeout
                $0.requestTimeout = requestTimeout
            })
        defer { Task { await connection.shutdown() } }
        return await turn(connection.makeRuntime(), [.user("Hi")], options: GenerationOptions(maxTokens: maxTokens))
    }

    /// The answer's events after `parts` (what the server sends while it works).
    static func answerAfter(_ parts: [FakeChatServer.Part]) -> FakeChatServer.Reply {
        .script(parts + FakeChatServer.llamaServerEvents(["Hel", "lo"]).map { .text("data: \($0)\n\n") })
    }

    /// An empty delta every 0.2 s reset the stall bound at each event, so that only the request
    /// timeout (600 s by default) ended the turn: an event that carries nothing is not progress.
    @Test func emptyDeltasDoNotKeepATurnAlive() async throws {
        let script: [FakeChatServer.Part] = [.text("data: \(Self.roleChunk)\n\n"), .forever(Self.emptyDeltas, gap: .milliseconds(200))]
        try await FakeChatServer.run(replies: [.script(script)]) { server in
            let started = ContinuousClock.now
            let failure = try #require(try await Self.turn(server, stallTimeout: 1, requestTimeout: 60).failure)
            #expect(failure.code == .timeout, "\(failure.code): \(failure.message)")
            // The stall bound ended it, not the request timeout: about 1 s on a quiet machine, a
            // few more while the tests beside it hold the cores (a reader behind holds the bound).
            #expect(failure.message.contains("stall bound"), "\(failure.message)")
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    /// Signs of life every 0.3 s through a 1.8-s wait for the answer, with a 1-s stall bound:
    /// `: keep-alive` comments ended such a healthy turn as stalled after 1 s (a comment is the
    /// event stream's way of saying the server is alive); a reasoning model's thinking
    /// (`reasoning_content`, not answer text) is progress as well.
    @Test(arguments: [
        ": keep-alive\n\n",
        #"data: {"choices":[{"index":0,"delta":{"reasoning_content":"Hmm"}}],"object":"chat.completion.chunk"}"# + "\n\n",
    ])
    func signsOfLifeKeepASlowTurnAlive(_ sign: String) async throws {
        let waiting = (0..<6).flatMap { _ in [FakeChatServer.Part.text(sign), .pause(.milliseconds(300))] }
        try await FakeChatServer.run(replies: [Self.answerAfter(waiting)]) { server in
            let result = try await Self.turn(server, stallTimeout: 1)
            #expect(result.failure == nil, "\(result.failure?.message ?? "")")
            #expect(result.text == "Hello")
            #expect((result.metrics?.timeToFirstToken ?? 0) > 1.5)
        }
    }

    /// The body's bound grows with what the suite asked, and cannot overflow.
    @Test func theBodyBoundFollowsMaxTokens() {
        #expect(OpenAIChatRuntime.bodyBound(maxTokens: 16) == 16 << 20)
        #expect(OpenAIChatRuntime.bodyBound(maxTokens: 4096) == 32 << 20)
        #expect(OpenAIChatRuntime.bodyBound(maxTokens: .max) == .max)
    }

    /// A server flooding the stream filled memory at 250–400 MB/s until the request timeout:
    /// empty deltas or comments, or one `data:` event that no blank line ends. A response body is
    /// bounded where libcurl delivers it (16 MiB at max_tokens 16), one event by the parser, and
    /// what libcurl holds that was not read yet by `HTTPRequest.maximumUnreadBytes`.
    /// One at a time, and alone among the suites that keep the cores busy (some load a model in
    /// this process): the peak memory is the process's, and a flood keeps both cores busy.
    @Suite(.serialized, .usesAllCores) struct Floods {
        enum Flood: String, CaseIterable, Sendable { case emptyDeltas, comments, endlessEvent }

        @Test(arguments: Flood.allCases) func aFloodEndsAtItsByteBoundInBoundedMemory(_ flood: Flood) async throws {
            let script: [FakeChatServer.Part] =
                switch flood {
                case .emptyDeltas: [.forever(String(repeating: OpenAIRuntimeTests.emptyDeltas, count: 50), gap: .zero)]
                case .comments: [.forever(String(repeating: ": keep-alive\n\n", count: 1_000), gap: .zero)]
                case .endlessEvent:
                    [
                        .text("data: \(OpenAIRuntimeTests.roleChunk)\n\n"),
                        .forever(String(repeating: "data: " + String(repeating: "x", count: 250) + "\n", count: 64), gap: .zero),
                    ]
                }
            // At max_tokens 4096 the body's bound is above one event's: the event's is the one reached.
            let maxTokens = flood == .endlessEvent ? 4096 : 16
            let window = PeakMemoryWindow()
            defer { window.finish() }
            let before = ProcessMemory.residentBytes() ?? 0
            try await FakeChatServer.run(replies: [.script(script)]) { server in
                let started = ContinuousClock.now
                let failure = try #require(
                    try await OpenAIRuntimeTests.turn(server, stallTimeout: 1, requestTimeout: 60, maxTokens: maxTokens).failure)
                if flood == .emptyDeltas, failure.code == .timeout {
                    // The body libcurl holds unread is bounded (issue 47): empty deltas arrive as fast as
                    // they are parsed, so on a busy machine a second without progress comes before 16 MiB.
                    #expect(failure.message.contains("(the stall bound)"), "\(failure.message)")
                } else {
                    #expect(failure.code == .malformedStream, "\(failure.code): \(failure.message)")
                    #expect(failure.message.contains("16 MiB"), "\(failure.message)")
                    #expect(failure.message.contains(flood == .endlessEvent ? "no blank line" : "bound of 16 MiB"), "\(failure.message)")
                }
                #expect(ContinuousClock.now - started < .seconds(30))  // the byte bound, not the request timeout
            }
            let growth = (window.close() ?? 0) - before
            #expect(growth < 200 << 20, "the peak resident memory grew by \(growth >> 20) MiB")
        }
    }
}
