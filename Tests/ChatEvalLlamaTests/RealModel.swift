import ChatEvalCore
import ChatEvalLlama
import ChatEvalRuntime
import ChatEvalTestKit
import Foundation
import Testing

/// Every suite that loads a real model is nested here: one session, one test at a time.
@Suite(.serialized, .tags(.realModel), .usesAllCores) enum RealModelTests {}

/// The two shipped models, shared by the integration tests (loading one takes about a second).
/// `make test` sets CHATEVAL_MODEL (the default chat model, SmolLM2, template embedded) and
/// CHATEVAL_GEMMA_MODEL (Gemma 3 270M base: no template, a sliding-window cache); without them
/// these tests fail rather than pass vacuously.
enum RealModel {
    static var path: String? { environment("CHATEVAL_MODEL") }
    static var gemmaPath: String? { environment("CHATEVAL_GEMMA_MODEL") }

    static let shared: Result<LlamaChatRuntime, any Error> = Result {
        guard let path else { throw MissingModel(variable: "CHATEVAL_MODEL") }
        var configuration = LlamaChatRuntime.Configuration(modelPath: path, contextSize: 4096, threads: 2)
        configuration.attributesMemory = true  // for MemoryAttributionTests; Gemma's runtime loads without
        return try LlamaChatRuntime(configuration)
    }

    static let sharedGemma: Result<LlamaChatRuntime, any Error> = Result {
        guard let gemmaPath else { throw MissingModel(variable: "CHATEVAL_GEMMA_MODEL") }
        return try LlamaChatRuntime(.init(modelPath: gemmaPath, chatTemplate: "gemma", contextSize: 4096, threads: 2))
    }

    /// The default chat model.
    static func runtime() throws -> LlamaChatRuntime { try shared.get() }

    /// Gemma 3 270M with the built-in `gemma` template.
    static func gemma() throws -> LlamaChatRuntime { try sharedGemma.get() }

    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    struct MissingModel: Error, CustomStringConvertible {
        var variable: String
        var description: String { "\(variable) is not set: run the tests with `make test`, which fetches the shipped models" }
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
