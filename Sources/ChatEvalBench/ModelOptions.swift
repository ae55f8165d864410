import ArgumentParser
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRuntime
import ChatEvalStore
import Foundation

/// The model and threads every benchmark takes.
struct ModelOptions: ParsableArguments {
    @Option(help: "GGUF model.") var model: String
    @Option(help: "Built-in chat template, for a model that stores none.") var chatTemplate: String?
    @Option(help: "Threads for every side.") var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard (1...ProcessInfo.processInfo.activeProcessorCount).contains(threads) else {
            throw ValidationError("--threads must be between 1 and the \(ProcessInfo.processInfo.activeProcessorCount) cores available")
        }
    }

    func runtime(
        contextSize: Int = 4096, slidingWindowCache: SlidingWindowCache = .full, streamInterval: Double = ChunkCoalescer.interval
    ) throws -> LlamaChatRuntime {
        var configuration = LlamaChatRuntime.Configuration(
            modelPath: model, chatTemplate: chatTemplate, contextSize: contextSize, batchSize: 512, threads: threads,
            slidingWindowCache: slidingWindowCache, build: EngineBuild.currentName)
        configuration.streamInterval = streamInterval
        configuration.attributesMemory = true
        return try LlamaChatRuntime(configuration)
    }

    /// Says how busy the machine is; a busy machine makes every figure below doubtful.
    func announce(_ title: String) {
        let load = MachineLoad.sample(over: 1)
        print("\n\(title) — \(URL(fileURLWithPath: model).lastPathComponent), \(threads) threads")
        print("machine: \(load.summary)\(load.isBusy ? " — FIGURES BELOW CARRY THAT NOISE" : "")")
    }
}

extension SlidingWindowCache: ExpressibleByArgument {}
