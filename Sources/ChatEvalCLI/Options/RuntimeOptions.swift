import ArgumentParser
import ChatEvalLlama
import Foundation

/// Which model runs and how: shared by every command that loads a model.
struct RuntimeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("GGUF model file.", valueName: "path"))
    var model: String = RuntimeOptions.defaultModelPath

    @Option(name: .long, help: ArgumentHelp(
        "Built-in llama.cpp chat template (e.g. gemma, chatml, llama3); required when the model stores none. 'embedded' forces the model's own.",
        valueName: "name"))
    var chatTemplate: String?

    @Option(name: .long, help: "Threads for prefill and decode (default: all cores).")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .customLong("ctx-size"), help: "Context window in tokens.")
    var contextSize: Int = 4096

    @Option(name: .customLong("batch-size"), help: "Most prompt tokens evaluated per llama_decode call.")
    var batchSize: Int = 512

    /// `$CHATEVAL_MODEL`, else the default model that `make run` fetches into the cache.
    static var defaultModelPath: String {
        if let path = ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], !path.isEmpty { return path }
        return cacheFolder + "/models/gemma-3-270m-q4_k_m.gguf"
    }

    /// `$CHATEVAL_CACHE`, else `~/.cache/chateval` (where scripts/setup.sh puts llama.cpp and models).
    static var cacheFolder: String {
        ProcessInfo.processInfo.environment["CHATEVAL_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/chateval"
    }

    func validate() throws {
        let problems = configuration.problems
        if !problems.isEmpty { throw ValidationError(problems.joined(separator: "; ")) }
    }

    var configuration: LlamaChatRuntime.Configuration {
        LlamaChatRuntime.Configuration(
            modelPath: model, chatTemplate: chatTemplate, contextSize: contextSize, batchSize: batchSize,
            threads: threads, build: ProcessInfo.processInfo.environment["CHATEVAL_LLAMA_BUILD"])
    }

    /// Loads the model; a bad model is bad input (exit 2).
    func loadRuntime() throws -> LlamaChatRuntime {
        do {
            return try LlamaChatRuntime(configuration)
        } catch {
            throw failure(error.description, error.code == .decodeFailed ? .runIncomplete : .badInput)
        }
    }
}
