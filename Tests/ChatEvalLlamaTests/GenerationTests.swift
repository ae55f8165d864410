import ChatEvalCore
import ChatEvalRuntime
import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalLlama

extension RealModelTests {
    @Suite struct GenerationTests {
        /// On Gemma, which answers in Japanese (the small chat model answers in English).
        @Test func multibyteAnswersStreamIntactAndMatchTheTokens() async throws {
            let runtime = try RealModel.gemma()
            await runtime.resetSession()
            let turn = try await respond(runtime, [.user("日本の首都はどこですか？日本語で答えてください。")], options: GenerationOptions(maxTokens: 48))

            #expect(turn.text.unicodeScalars.contains { $0.value > 0x2FFF }, "expected CJK text, got \(turn.text)")
            #expect(!turn.text.unicodeScalars.contains("\u{FFFD}"))
            #expect(turn.chunks.allSatisfy { !$0.unicodeScalars.contains("\u{FFFD}") })
            // What was streamed piece by piece equals llama.cpp's own detokenization of the tokens.
            var tokens = await runtime.lastTurnTokens()
            if turn.metrics.stopReason == .endOfGeneration { tokens.removeLast() }
            #expect(turn.text == runtime.detokenize(tokens))
        }

        @Test func stopStringsEndTheAnswerAndAreCutFromIt() async throws {
            let runtime = try RealModel.runtime()
            await runtime.resetSession()
            let free = try await respond(runtime, [.user("List three animals, one per line.")], options: GenerationOptions(maxTokens: 40))
            // Stop on the second character of the free answer's text: deterministic under greedy decoding.
            let words = free.text.split(separator: " ").filter { $0.count >= 3 }
            let stop = String(try #require(words.dropFirst().first))
            await runtime.resetSession()
            let stopped = try await respond(
                runtime, [.user("List three animals, one per line.")], options: GenerationOptions(maxTokens: 40, stop: [stop]))
            #expect(stopped.metrics.stopReason == .stopString)
            #expect(!stopped.text.contains(stop))
            #expect(free.text.hasPrefix(stopped.text))
        }

        @Test func maxTokensIsRespectedAndTimingsAreConsistent() async throws {
            let runtime = try RealModel.runtime()
            await runtime.resetSession()
            let turn = try await respond(
                runtime, [.user("Describe the sea.")], options: GenerationOptions(maxTokens: 10, ignoreEndOfGeneration: true))
            let metrics = turn.metrics
            #expect(metrics.generatedTokens == 10)
            #expect(metrics.stopReason == .maxTokens)
            #expect(metrics.interTokenLatencies.count == 9)
            // The phases add up: prefill inside the time to the first token, then the decode.
            let prefillTime = try #require(metrics.prefillTime)
            #expect(prefillTime > 0 && prefillTime < metrics.timeToFirstToken)
            #expect(metrics.timeToFirstToken < metrics.totalTime)
            #expect(metrics.timeToFirstToken + metrics.decodeTime <= metrics.totalTime)
            #expect(abs(metrics.interTokenLatencies.reduce(0, +) - metrics.decodeTime) < 1e-6)
            // The turn's peak is the larger of its phases'; the cache holds the prompt and the answer.
            let prefillPeak = try #require(metrics.prefillPeakResidentBytes), decodePeak = try #require(metrics.decodePeakResidentBytes)
            #expect(metrics.peakResidentBytes == max(prefillPeak, decodePeak))
            let identity = try RealModel.runtime().identity
            let perToken = try #require(identity.kvCacheBytes) / identity.contextSize
            #expect(metrics.kvCacheBytesInUse == perToken * (metrics.promptTokens + metrics.generatedTokens - 1))
        }

        /// A cancelled turn ends as `cancelled`, and a long prefill stops part-way: an empty session
        /// afterwards shows it (a finished prefill leaves the prompt cached). The runtime stays usable.
        @Test func cancellingATurnStopsEvenItsPrefill() async throws {
            let runtime = try RealModel.runtime()
            let long = String(repeating: "The river winds through the valley past old mills and orchards. ", count: 250)
            let prompt = try #require(runtime.promptTokens(for: [.user(long)]))
            try #require(prompt.count > 2_000 && prompt.count < runtime.identity.contextSize)
            let script = ConversationScript(
                id: "long", options: GenerationOptions(maxTokens: 4), userMessages: [TemplateText(literal: long)])
            let replay = Task { await ConversationReplayer(runtime: runtime).replay(script) }
            try await Task.sleep(for: .milliseconds(300))
            replay.cancel()
            let turns = await replay.value
            #expect(turns.first?.status == .failed)
            #expect(turns.first?.failure?.code == .cancelled, "\(String(describing: turns.first?.failure))")
            #expect(await runtime.sessionTokens().isEmpty)

            await runtime.resetSession()
            let after = try await respond(runtime, [.user("Hi")], options: GenerationOptions(maxTokens: 4))
            #expect(after.metrics.generatedTokens > 0)
        }

        @Test func identityDescribesTheModelAndItsCache() throws {
            let path = try #require(RealModel.path)
            let identity = try RealModel.runtime().identity
            #expect(identity.chatTemplate == "embedded" && identity.chatTemplateSource == "model")
            #expect(identity.chatTemplateHash?.count == 64)
            #expect(identity.model.fileBytes == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
            #expect(!identity.model.description.isEmpty && (identity.model.parameters ?? 0) > 0)
            #expect((identity.loadSeconds ?? 0) > 0 && (identity.warmupSeconds ?? 0) > 0)
            // llama.cpp's own report of its buffers: the weights, the cache (as computed from the
            // model's geometry), the compute buffers.
            let memory = try #require(identity.memory)
            #expect((memory.modelBytes ?? 0) > 0 && (memory.computeBytes ?? 0) > 0)
            #expect(memory.kvCacheBytes == identity.kvCacheBytes)
            // What a decoded token reads of the weights: the tensors once, never the repacked
            // copy beside the mapped file as well (an AMX Xeon's buffers hold them twice, and
            // decode read as 157% of the bandwidth bound). Quantised weights are most of the file.
            let fileBytes = identity.model.fileBytes, weights = try #require(memory.weightBytes)
            #expect(weights <= fileBytes && weights > fileBytes * 3 / 4, "weights \(weights) of a \(fileBytes)-byte file")
            #expect(memory.roofline?.weightBytes == weights)
            #expect((memory.loadPeakResidentBytes ?? 0) > (memory.residentBytesBeforeLoad ?? .max))
            // The cache holds every layer's keys and values for every position: twice the context, twice the bytes.
            let half = try LlamaChatRuntime(.init(modelPath: path, contextSize: 2048, threads: 1)).identity
            let full = try #require(identity.kvCacheBytes)
            #expect(full > 0 && half.kvCacheBytes.map { $0 * 2 } == full)
        }

        @Test func theTwoShippedModelsDifferInTemplateAndIdentity() throws {
            let chat = try RealModel.runtime().identity, gemma = try RealModel.gemma().identity
            #expect(gemma.chatTemplate == "gemma" && gemma.chatTemplateSource == "builtin")
            #expect(chat.chatTemplateHash != gemma.chatTemplateHash)
            #expect(chat.model.description != gemma.model.description)
        }
    }
}

extension RealModelTests {
    @Suite struct ContextOverflowTests {
        @Test func overflowIsATypedTurnFailureAndTheRuntimeStaysUsable() async throws {
            let path = try #require(RealModel.path, "CHATEVAL_MODEL is not set")
            let runtime = try LlamaChatRuntime(.init(modelPath: path, contextSize: 64, threads: 2))
            let window = runtime.identity.contextSize  // llama.cpp rounds the context up (to 256 here)
            #expect(window >= 64)
            let script = ConversationScript(
                id: "overflow", options: GenerationOptions(maxTokens: window / 2, ignoreEndOfGeneration: true),
                userMessages: ["Tell me about the moon.", "And about the sun, at length please.", "And the stars?"].map {
                    TemplateText(literal: $0)
                })
            let results = await ConversationReplayer(runtime: runtime).replay(script)

            #expect(results.first?.status == .answered)
            let failed = try #require(results.first { $0.status == .failed })
            #expect(failed.failure?.code == .contextOverflow)
            #expect(failed.failure?.message.contains("\(window)") == true)
            #expect(results.last?.status == .skipped)

            // A prompt that alone exceeds the window fails before anything is evaluated.
            let long = String(repeating: "word ", count: window * 2)
            let tooLong = await ConversationReplayer(runtime: runtime)
                .replay(ConversationScript(id: "long", userMessages: [TemplateText(literal: long)]))
            #expect(tooLong.first?.failure?.code == .contextOverflow)
            #expect(tooLong.first?.failure?.message.contains("no room to answer") == true)

            // A turn that fits still works after the failure.
            let short = ConversationScript(
                id: "short", options: GenerationOptions(maxTokens: 4), userMessages: [TemplateText(literal: "Hi")])
            let after = await ConversationReplayer(runtime: runtime).replay(short)
            #expect(after.first?.status == .answered)
        }
    }
}

/// The error a configuration fails to load with, or nil when it loads.
private func loadError(_ configuration: LlamaChatRuntime.Configuration) -> LlamaError? {
    do {
        _ = try LlamaChatRuntime(configuration)
        return nil
    } catch {
        return error
    }
}

private func temporaryFile(_ name: String, _ data: Data) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-\(UUID().uuidString)-\(name)").path
    try data.write(to: URL(fileURLWithPath: path))
    return path
}

@Suite struct BadModelTests {
    @Test func missingFile() throws {
        let error = try #require(loadError(.init(modelPath: "/nonexistent/model.gguf")))
        #expect(error.code == .modelNotFound)
        #expect(error.description.contains("/nonexistent/model.gguf"))
    }

    @Test func fileThatIsNotGGUF() throws {
        let path = try temporaryFile("notes.gguf", Data("these are not weights\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(loadError(.init(modelPath: path)))
        #expect(error.code == .notGGUF)
    }

    @Test(arguments: [0, -2])
    func threadsMustBePositive(_ threads: Int) throws {
        let error = try #require(loadError(.init(modelPath: "/unused.gguf", threads: threads)))
        #expect(error.code == .invalidParameter)
        #expect(error.message.contains("threads"))
    }

    @Test(arguments: [-0.5, Double.nan])
    func theStreamIntervalMustBeZeroOrMore(_ interval: Double) throws {
        var configuration = LlamaChatRuntime.Configuration(modelPath: "/unused.gguf")
        configuration.streamInterval = interval
        let error = try #require(loadError(configuration))
        #expect(error.code == .invalidParameter)
        #expect(error.message.contains("stream interval"))
        configuration.streamInterval = .infinity  // one chunk at the end of the turn
        #expect(configuration.problems.isEmpty)
    }
}

extension RealModelTests {
    /// Model files that load wrongly, cut from a real model or without a template.
    @Suite struct BadModelFileTests {
        @Test func truncatedGGUF() throws {
            let model = try #require(RealModel.path, "CHATEVAL_MODEL is not set")
            let handle = try #require(FileHandle(forReadingAtPath: model))
            let head = try #require(try handle.read(upToCount: 4 << 20))
            try handle.close()
            let path = try temporaryFile("truncated.gguf", head)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let error = try #require(loadError(.init(modelPath: path)))
            #expect(error.code == .modelLoadFailed)
            #expect(error.pointOfFailure == "llama_model_load_from_file")
            #expect(!error.engineLog.isEmpty)  // llama.cpp's own explanation is kept
        }

        @Test func unknownTemplateNameListsTheKnownOnes() throws {
            let model = try #require(RealModel.path, "CHATEVAL_MODEL is not set")
            let error = try #require(loadError(.init(modelPath: model, chatTemplate: "gemmma")))
            #expect(error.code == .unknownChatTemplate)
            #expect(error.message.contains("gemma"))
        }

        @Test func aModelWithoutATemplateNeedsANameAndIsToldWhichOne() throws {
            let model = try #require(RealModel.gemmaPath, "CHATEVAL_GEMMA_MODEL is not set")
            let error = try #require(loadError(.init(modelPath: model, chatTemplate: nil)))
            #expect(error.code == .unknownChatTemplate)
            #expect(error.message.contains("--chat-template gemma"))
        }
    }
}
