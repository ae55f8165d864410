import ArgumentParser
import ChatEvalCore
import ChatEvalSuites
import ChatEvalWorkspace

/// Which model runs and how, as given on the command line (unset options fall back to the
/// environment, the project file, then built-in defaults: see `RunConfiguration`).
struct RuntimeOptions: ParsableArguments {
    @Option(
        name: .customLong("model"),
        help: ArgumentHelp(
            "GGUF model file (default: $CHATEVAL_MODEL, else the project file's, else the default chat model). "
                + "Repeat it to run the suites against several models side by side.",
            valueName: "path"))
    var models: [String] = []

    @Option(
        name: .customLong("chat-template"),
        help: ArgumentHelp(
            "Built-in llama.cpp chat template (e.g. gemma, chatml, llama3); required when the model stores none. "
                + "'embedded' forces the model's own. Once for every model, or once per --model in order.",
            valueName: "name"))
    var chatTemplates: [String] = []

    @Option(name: .long, help: "Threads for prefill and decode (default: all cores; at most the cores available).")
    var threads: Int?

    @Option(
        name: .customLong("ctx-size"),
        help: ArgumentHelp("Context window in tokens (default 4096). Once for every model, or once per --model.", valueName: "tokens"))
    var contextSizes: [Int] = []

    @Option(name: .customLong("batch-size"), help: "Most prompt tokens evaluated per llama_decode call (default 512).")
    var batchSize: Int?

    @Option(
        name: .customLong("sliding-window-cache"),
        help: ArgumentHelp(
            "full (default): a sliding-window model (Gemma 3) caches every position, so a turn reuses any prefix; "
                + "window: only about the window, as llama-server by default (a trim past the window re-evaluates the prompt).",
            valueName: "full|window"))
    var slidingWindowCache: SlidingWindowCache?

    func validate() throws {
        if let threads {
            if threads < 1 { throw ValidationError("--threads must be at least 1 (got \(threads))") }
            if threads > LocalSetup.availableCores {
                throw ValidationError(
                    "--threads \(threads): this machine has \(LocalSetup.availableCores) cores available; "
                        + "more threads than cores only slow llama.cpp down"
                )
            }
        }
        for contextSize in contextSizes where !RuntimeLimits.contextSize.contains(contextSize) {
            throw ValidationError(
                "--ctx-size must be at least \(RuntimeLimits.contextSize.lowerBound) and at most "
                    + "\(RuntimeLimits.contextSize.upperBound) tokens (got \(contextSize))"
            )
        }
        if let batchSize, !(1...RuntimeLimits.contextSize.upperBound).contains(batchSize) {
            throw ValidationError("--batch-size must be at least 1 and at most \(RuntimeLimits.contextSize.upperBound) (got \(batchSize))")
        }
    }
}
