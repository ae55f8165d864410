import ArgumentParser
import ChatEvalCore
import ChatEvalReport
import ChatEvalWorkspace

struct BisectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the commit where each difference between a good and a bad commit appeared, and how sure.",
        discussion: """
            Walks the first-parent commits from GOOD to BAD through libgit2 (the working tree is not touched) and replays each \
            commit with its own suites and project file — its model, template, context, threads, batch and cache mode, then \
            the command line's overrides — as `run --baseline` replays a revision. Commits that change no input (the project \
            file or a suite) are skipped: they replay exactly what the commit before them replays. A commit between the ends \
            whose suites, project file or model do not load is skipped as `git bisect skip` skips one, and listed.

            The ends are first replayed once each and compared exactly, and every exact difference is chased at once; then \
            they are compared interleaved in rounds; every timed difference is then chased on its own: exact \
            ones (a turn's work ledger, a check failing on exact answers) by one greedy replay of each probed commit, pass \
            rates by Fisher's exact test and metrics by the paired test in rounds, each probe against half the change the \
            ends showed. A culprit is confirmed against the commit before it, and the ranges beside it are checked for a \
            second step. The error rate (1 − --confidence) is shared by every probe the bisection can take; a probe that \
            cannot decide within --max-repeat is named, never guessed.

            Every probe's runs are recorded in the reports folder and the probes in <reports>/.chateval/bisect-GOOD-BAD.json: \
            run the same command again after Ctrl-C and finished probes are read back, not measured again, and a commit whose \
            build failed is skipped again, not built again (--fresh starts over).

            With --build and --serve, each command runs in a process group of its own, bounded by --build-timeout and \
            --serve-ready-timeout (a commit past either is skipped, its group killed); Ctrl-C or SIGTERM ends every group \
            ChatEval started (TERM, then KILL 5 s later) and exits 130 or 143, and if ChatEval itself is killed its groups \
            notice and end themselves.

            Examples:
              chateval bisect v1.2 HEAD
                  every suite of the project file
              chateval bisect HEAD~16 HEAD suites/smoke.yaml --format markdown
              chateval bisect v1.2 HEAD --build 'cmake -B build && cmake --build build' \\
                  --serve 'exec build/bin/llama-server -m "$MODEL" --port "$PORT"'
                  the runtime built and served from each commit; a failed build is skipped

            Exit codes: 0 every difference has its culprit, 2 bad input, 3 interrupted (run it again to resume) or a \
            report could not be written, 4 the ends do not differ or a difference stayed undecided, 130 or 143 stopped by \
            SIGINT or SIGTERM with --serve (run it again to resume).
            """)

    @Argument(help: ArgumentHelp("A commit without the change (older).", valueName: "good")) var good: String
    @Argument(help: ArgumentHelp("A commit with it (newer, on the good one's first-parent line).", valueName: "bad")) var bad: String
    @OptionGroup var suites: SuiteOptions
    @OptionGroup var selection: SelectionOptions
    @OptionGroup var runtime: RuntimeOptions
    @OptionGroup var recording: RecordingOptions
    @OptionGroup var project: ProjectOptions

    @Option(
        name: .customLong("max-repeat"),
        help: ArgumentHelp("The most repetitions per side one probe's rounds may take (default 60).", valueName: "n"))
    var maxRepetitions = 60

    @Option(help: ArgumentHelp("How sure every culprit named must be, together (default 0.95).", valueName: "level"))
    var confidence = 0.95

    @Flag(help: "Measure every probe again, ignoring what an interrupted bisection of the same question kept.")
    var fresh = false

    @Option(
        name: .customLong("time-budget"),
        help: ArgumentHelp(
            "No probe starts after this long (30m, 2h, 90s); what is known is then reported and what is not is named "
                + "undecided (exit 4). Default: the project file's time_budget, else 30m.", valueName: "duration"))
    var timeBudget: String?

    @Option(
        name: .customLong("build"),
        help: ArgumentHelp(
            "Where the code under test is the runtime: run this (sh -c) in a scratch copy of each probed commit first; "
                + "a commit whose build fails is skipped, as git bisect skip does. Needs --serve.", valueName: "command"))
    var buildCommand: String?

    @Option(
        name: .customLong("serve"),
        help: ArgumentHelp(
            "Start this (sh -c) in each probed commit's scratch copy, with PORT set, and measure the OpenAI-compatible "
                + "server it runs at http://127.0.0.1:$PORT/v1. Every commit that changes any file is then measured.",
            valueName: "command"))
    var serveCommand: String?

    @Option(
        name: .customLong("build-timeout"),
        help: ArgumentHelp(
            "How long one commit's --build may take (30m, 2h, 90s; default 30m); past it the build's process group is "
                + "killed and the commit skipped.", valueName: "duration"))
    var buildTimeout: String?

    @Option(
        name: .customLong("serve-ready-timeout"),
        help: ArgumentHelp(
            "How long one commit's --serve server may take to answer (default 120s); past it the server's process group "
                + "is killed and the commit skipped.", valueName: "duration"))
    var serveReadyTimeout: String?

    /// --format / --output: terminal, json (the bisection's record) or markdown.
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (2...10_000).contains(maxRepetitions) else {
            throw ValidationError("--max-repeat must be 2 to 10000 (got \(maxRepetitions))")
        }
        guard confidence > 0.5, confidence < 1 else {
            throw ValidationError("--confidence must be above 0.5 and below 1 (got \(confidence))")
        }
        if let timeBudget, DurationText.seconds(timeBudget).map({ $0 > 0 }) != true {
            throw ValidationError("--time-budget \(timeBudget): not a duration; write e.g. 30m or 90s")
        }
        for (name, value) in [("--build-timeout", buildTimeout), ("--serve-ready-timeout", serveReadyTimeout)] {
            if let value, DurationText.seconds(value).map({ $0 > 0 }) != true {
                throw ValidationError("\(name) \(value): not a duration; write e.g. 30m or 90s")
            }
            if value != nil, serveCommand == nil { throw ValidationError("\(name) needs --serve: it bounds a served commit's commands") }
        }
        if buildCommand != nil, serveCommand == nil {
            throw ValidationError("--build needs --serve: the server started from what was built is what the probes measure")
        }
        if recording.gitNote { throw ValidationError("--git-note: bisect records probes, not a run of one commit; drop it") }
        for format in [ReportFormat.junit, .html, .csv] {
            try output.refuse(format, "a bisection is reported as terminal text, json or markdown")
        }
    }

    func run() async throws {
        var job = BisectJob(
            good: good, bad: bad,
            settings: recording.workspace(project, runtime.overrides(suitePaths: suites.given, reportsFolder: recording.reportsFolder)),
            selection: selection.selection(suites), maxRepetitions: maxRepetitions, confidence: confidence, fresh: fresh,
            buildCommand: buildCommand, serveCommand: serveCommand, timeBudget: timeBudget.flatMap(DurationText.seconds),
            output: output.resolved)
        if let seconds = buildTimeout.flatMap(DurationText.seconds) { job.buildTimeout = seconds }
        if let seconds = serveReadyTimeout.flatMap(DurationText.seconds) { job.readyTimeout = seconds }
        try await job.run()
    }
}
