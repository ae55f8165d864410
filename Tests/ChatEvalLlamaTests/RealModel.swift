import ChatEvalCore
import ChatEvalLlama
import ChatEvalRuntime
import Foundation
import Testing

/// Every suite that uses the shared runtime is nested here: one session, one test at a time.
@Suite(.serialized) enum SharedRuntimeTests {}

/// The default model, shared by the integration tests (loading it takes about a second).
/// `make test` sets CHATEVAL_MODEL; without it these tests fail rather than pass vacuously.
enum RealModel {
    static var path: String? { ProcessInfo.processInfo.environment["CHATEVAL_MODEL"].flatMap { $0.isEmpty ? nil : $0 } }

    static let shared: Result<LlamaChatRuntime, any Error> = Result {
        guard let path else { throw MissingModel() }
        return try LlamaChatRuntime(.init(modelPath: path, chatTemplate: "gemma", contextSize: 4096, threads: 2))
    }

    static func runtime() throws -> LlamaChatRuntime {
        try shared.get()
    }

    struct MissingModel: Error, CustomStringConvertible {
        var description: String { "CHATEVAL_MODEL is not set: run the tests with `make test`, which fetches the default model" }
    }
}

/// Streams one turn and returns its text and measurements, or the failure.
func respond(_ runtime: some ChatRuntime, _ messages: [ChatMessage], options: GenerationOptions = GenerationOptions(maxTokens: 16))
    async throws -> (text: String, chunks: [String], metrics: TurnMetrics)
{
    var chunks: [String] = []
    var metrics: TurnMetrics?
    for try await event in runtime.respond(to: messages, options: options) {
        switch event {
        case .chunk(let chunk): chunks.append(chunk)
        case .info(let info): metrics = info
        }
    }
    return (chunks.joined(), chunks, try #require(metrics))
}
