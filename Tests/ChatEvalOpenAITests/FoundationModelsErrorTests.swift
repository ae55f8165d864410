import ChatEvalCore
import ChatEvalOpenAI
import ChatEvalRuntime
import ChatEvalTestKit
import Foundation
import Testing

/// A server bridging Apple's Foundation Models (its `LanguageModelSession.GenerationError`)
/// reports an error in one of the shapes a bridge may choose: the case as the error's `type` or
/// `code` in any spelling, or the Swift error's description as the message. Each is recorded as
/// ChatEval's failure for it, under its code; the transient ones are retried as a 429 is.
@Suite(.timeLimit(.minutes(1))) struct FoundationModelsErrorTests {
    struct Case: Sendable, CustomStringConvertible {
        var status: Int
        var body: String
        var code: RuntimeFailure.Code
        var retried: Bool = false
        var description: String { "\(status) \(body)" }
    }

    static let cases: [Case] = [
        Case(
            status: 400, body: #"{"error":{"message":"Exceeded the context window size","type":"exceededContextWindowSize"}}"#,
            code: .contextOverflow),
        Case(
            status: 400,
            body: #"{"error":{"message":"Unsafe content detected","type":"invalid_request_error","code":"guardrail_violation"}}"#,
            code: .guardrailViolation),
        Case(
            status: 500,
            body:
                #"{"error":"guardrailViolation(FoundationModels.LanguageModelSession.GenerationError.Context("#
                + #"debugDescription: \"May contain sensitive content\"))"}"#,
            code: .guardrailViolation),
        Case(status: 400, body: #"{"error":{"message":"The model declined","type":"refusal"}}"#, code: .refused),
        Case(status: 429, body: #"{"error":{"message":"Slow down","type":"rateLimited"}}"#, code: .rateLimited, retried: true),
        Case(
            status: 409, body: #"{"error":{"message":"Busy","code":"CONCURRENT_REQUESTS"}}"#, code: .rateLimited, retried: true),
        Case(
            status: 503, body: #"{"error":{"message":"Model assets are downloading","type":"assetsUnavailable"}}"#, code: .unavailable,
            retried: true),
        Case(
            status: 400, body: #"{"error":{"message":"Unsupported language","type":"unsupported-language-or-locale"}}"#,
            code: .unsupportedLanguage),
        Case(status: 500, body: #"{"error":{"message":"GenerationError.decodingFailure: bad guide"}}"#, code: .invalidResponse),
        // Plain words are other servers' sentences, and a case name inside a longer one is no case name.
        Case(status: 400, body: #"{"error":{"message":"the user was rate limited by policy"}}"#, code: .httpError),
        Case(status: 400, body: #"{"error":{"message":"see noguardrailViolations in the docs"}}"#, code: .httpError),
    ]

    @Test(arguments: cases)
    func aServedErrorInFoundationModelsTaxonomyIsRecordedAsItsFailure(_ example: Case) async throws {
        let reply = FakeChatServer.Reply.status(example.status, body: example.body)
        try await FakeChatServer.run(replies: Array(repeating: reply, count: 3)) { server in
            let connection = try await OpenAIConnection.open(OpenAIRuntimeTests.configuration(server))
            defer { Task { await connection.shutdown() } }
            let result = await OpenAIRuntimeTests.turn(connection.makeRuntime(), [.user("Hello")])
            let failure = try #require(result.failure)
            #expect(failure.code == example.code, "\(failure)")
            #expect((failure.retries?.count ?? 0) == (example.retried ? 2 : 0), "\(failure)")
            #expect(await server.chatRequests.count == (example.retried ? 3 : 1))
            // The server's own words stay in the message.
            let said = try #require(ServerFailuresProbe.message(of: example.body))
            #expect(failure.message.contains(said) || example.code == .contextOverflow, "\(failure.message)")
        }
    }

    /// The same error inside the stream, after the answer had begun, is recorded the same way (and
    /// never retried: the answer had begun).
    @Test func anErrorEventMidAnswerIsRecordedAsItsFailure() async throws {
        let events = [
            #"{"choices":[{"index":0,"delta":{"content":"Sure, "}}]}"#,
            #"{"error":{"message":"Unsafe content detected","type":"guardrailViolation"}}"#,
        ]
        try await FakeChatServer.run(replies: [.events(events)]) { server in
            let connection = try await OpenAIConnection.open(OpenAIRuntimeTests.configuration(server))
            defer { Task { await connection.shutdown() } }
            let result = await OpenAIRuntimeTests.turn(connection.makeRuntime(), [.user("Hello")])
            let failure = try #require(result.failure)
            #expect(failure.code == .guardrailViolation && failure.code.rawValue == "guardrail_violation")
            #expect(failure.retries == nil)
            #expect(failure.message.contains("Unsafe content detected"))
        }
    }
}

/// The message a test body carries, read the way a person would: the nested `message`, or the
/// `error` text.
enum ServerFailuresProbe {
    static func message(of body: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else { return nil }
        if let text = object["error"] as? String { return String(text.prefix(40)) }
        return (object["error"] as? [String: Any])?["message"] as? String
    }
}
