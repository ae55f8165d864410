import ArgumentParser
import ChatEvalCore
import ChatEvalWorkspace

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay suites against the model, measure every turn, record the run.",
        discussion: """
            Writes a result file under the reports folder (see reports/schema/run.schema.json). Settings come from the \
            command line, else the project file (chateval.yaml), else built-in defaults; the record says which.

            With several --model options (or models: in the project file), the suites run against each model in \
            turn, loaded one at a time; each model gets its own result file, tied by a group id, and the report \
            shows them side by side. With --runtime openai the suites run against an OpenAI-compatible server \
            instead (llama-server, vLLM, Ollama, mlx_lm.server, a hosted API); several --model-name options are \
            that server's models side by side.

            --concurrency N replays N conversations at once against a served model (a list sweeps); --shard I/N \
            runs one part of the suites for one CI job, joined by `chateval merge`.

            With --baseline REV, also replays REV's suites and project file (read from git, the working tree untouched) \
            in the same process, interleaved conversation by conversation, then compares the two runs as `chateval compare` \
            does: exit 1 on a regression. This is what a CI job should call.

            Examples:
              chateval run
                  the project file's suites and model
              chateval run suites/memory.yaml#pet-name --repeat 5
                  one conversation, five times
              chateval run --filter 'memory/*' --tag '!hard'
                  a subset by pattern and tag
              chateval run --model a.gguf --model b.gguf \\
                  --chat-template embedded --chat-template gemma
                  two models side by side, each with its chat template
              chateval run --baseline origin/main
                  the CI gate
              chateval run --verify-cache
                  each conversation with the session cache, then cold: answers must match
              chateval run --runtime openai --base-url http://127.0.0.1:8080/v1 \\
                  --concurrency 1,2,4
                  a served model under load, at three concurrency levels
            """)

    @OptionGroup var suites: SuiteOptions
    @OptionGroup var selection: SelectionOptions
    @OptionGroup var runtime: RuntimeOptions
    @OptionGroup var served: ServedRuntimeOptions
    @OptionGroup var load: LoadOptions
    @OptionGroup var recording: RecordingOptions
    @OptionGroup var project: ProjectOptions

    @Option(
        name: .customLong("cache-mode"),
        help: "session: reuse the KV cache across turns, as a chat app does; cold: re-evaluate the whole history every turn.")
    var cacheMode: CacheMode?

    @Option(name: .customLong("repeat"), help: "Measured repetitions of every conversation (raw samples of each are recorded).")
    var repetitions: Int?

    @Option(name: .customLong("warmup"), help: "Conversations replayed first and not counted.")
    var warmup: Int?

    @Option(
        help: ArgumentHelp(
            "Also replay this revision's suites and project file, interleaved, and compare (exit 1 on a regression).", valueName: "rev"))
    var baseline: String?

    @Option(
        name: .customLong("max-repeat"),
        help: ArgumentHelp(
            "With --baseline: the most repetitions per side the rounds may add (default: the project file's max_repetitions, else 30).",
            valueName: "n"))
    var maxRepetitions: Int?

    @Option(
        name: .customLong("time-budget"),
        help: ArgumentHelp(
            "With --baseline: start no round that would end past this, e.g. 20m or 90s; 0 for none (default: time_budget, else 20m).",
            valueName: "duration"))
    var timeBudget: String?

    @OptionGroup var comparison: ComparisonOptions
    @OptionGroup var mismatch: MismatchOptions
    @OptionGroup var report: ReportOptions
    /// --format / --output: the run's report (with --baseline, followed by the comparison) as terminal, json, markdown, junit, html,
    /// csv (with --baseline, the base's turns first).
    @OptionGroup var output: OutputOptions

    @Flag(
        name: .customLong("print-prompt"), help: "Keep each turn's exact prompt (the chat template's rendering) in the result and print it."
    )
    var printPrompt = false

    @Flag(
        name: .customLong("verify-cache"),
        help: ArgumentHelp(
            "Replay every conversation greedily with the session cache and cold, and require identical answers (exit 1 names the "
                + "first turn that differs). Records nothing."))
    var verifyCache = false

    @Flag(
        name: .customLong("require-quiet"),
        help: "Refuse to run (exit 3) when other processes keep the machine busy; by default a busy machine is a warning.")
    var requireQuiet = false

    @Flag(
        name: .customLong("memory-attribution"),
        help: ArgumentHelp(
            "After each in-process model's run, print the process's resident memory split between llama.cpp (model file, buffers, "
                + "libraries) and the harness (the files it maps, by library, and its anonymous memory)."))
    var memoryAttribution = false

    func validate() throws {
        if let repetitions, !(1...10_000).contains(repetitions) {
            throw ValidationError("--repeat must be at least 1 and at most 10000 (got \(repetitions))")
        }
        if let warmup, !(0...10_000).contains(warmup) {
            throw ValidationError("--warmup must be 0 or more and at most 10000 (got \(warmup))")
        }
        if let maxRepetitions, !(2...10_000).contains(maxRepetitions) {
            throw ValidationError("--max-repeat must be at least 2 and at most 10000 (got \(maxRepetitions))")
        }
        if let timeBudget, DurationText.seconds(timeBudget) == nil {
            throw ValidationError("--time-budget \(timeBudget): not a duration; write e.g. 20m, 90s or 1h30m (0 for none)")
        }
        if verifyCache, let conflict = verifyCacheConflicts.first {
            throw ValidationError("--verify-cache replays every conversation once with the session cache and once cold; drop \(conflict)")
        }
        if memoryAttribution, let other = baseline.map({ _ in "--baseline" }) ?? (verifyCache ? "--verify-cache" : nil) {
            throw ValidationError("--memory-attribution is printed after a plain run only, not with \(other); drop one of the two")
        }
        if baseline == nil, maxRepetitions != nil || timeBudget != nil {
            throw ValidationError("--max-repeat and --time-budget shape a run with --baseline; a plain run replays --repeat N times")
        }
    }

    /// Options `--verify-cache` cannot be combined with, as sentences; empty when none is given.
    var verifyCacheConflicts: [String] {
        [
            baseline.map { _ in "--baseline" }, load.levels.map { _ in "--concurrency" }, load.shard.map { _ in "--shard" },
            cacheMode.map { _ in "--cache-mode (it replays with both)" }, repetitions.map { _ in "--repeat" },
        ].compactMap { $0 }
    }

    func run() async throws {
        try await RunJob(
            settings: recording.workspace(
                project,
                runtime.overrides(
                    suitePaths: suites.given, reportsFolder: recording.reportsFolder, cacheMode: cacheMode, repetitions: repetitions,
                    maxRepetitions: maxRepetitions, timeBudget: timeBudget.flatMap(DurationText.seconds), warmup: warmup)),
            served: try served.overrides(), selection: selection.selection(suites),
            load: LoadRequest(levels: load.levels, shard: load.parsedShard, sweepChart: load.sweepChart),
            baseline: baseline, fixedRepetitions: repetitions, comparisonOverrides: try comparison.overrides(),
            gate: GatePolicy(allowMismatch: mismatch.allowMismatch, undecided: comparison.undecided),
            reportOptions: report.options(showPrompts: printPrompt), output: output.resolved, keepsPrompts: printPrompt,
            gitNote: recording.gitNote, verifyCache: verifyCache, requireQuiet: requireQuiet, attributesMemory: memoryAttribution
        ).run()
    }
}

extension CacheMode: ExpressibleByArgument {}
extension SlidingWindowCache: ExpressibleByArgument {}
