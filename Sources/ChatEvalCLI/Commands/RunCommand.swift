import ArgumentParser
import ChatEvalCompare
import ChatEvalCore
import ChatEvalGit
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation
import Synchronization

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
        if baseline == nil, maxRepetitions != nil || timeBudget != nil {
            throw ValidationError("--max-repeat and --time-budget shape a run with --baseline; a plain run replays --repeat N times")
        }
    }

    func run() async throws {
        let machineLoad = MachineLoad.sample()
        if machineLoad.isBusy {
            if requireQuiet {
                throw failure(
                    "the machine is \(machineLoad.summary); timings taken now would carry their noise (--require-quiet)", .runIncomplete)
            }
            warn("the machine is \(machineLoad.summary): timings taken now carry their noise (--require-quiet refuses to run)")
        }
        let workspace = try Workspace.open(recording: recording, project: project)
        let cacheFault = try Self.cacheFaultFromEnvironment()
        let projectFolder = project.path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() } ?? workspace.root
        var head = try resolve(project: workspace.project, projectFolder: projectFolder)
        head.cacheFault = cacheFault
        let picked = selection.selection(suites)
        let servedConfiguration = try ServedConfiguration.resolve(served, project: workspace.project)
        try checkLoadAndShard(
            servedConfiguration, models: servedConfiguration.kind == .openai ? servedConfiguration.modelNames.count : head.variants.count)

        if verifyCache {
            try await verifyCache(head, selection: picked, served: servedConfiguration)
            return
        }
        if let baseline {
            guard head.variants.count == 1 else {
                throw failure("--baseline compares one model; \(head.variants.count) are given (run the gate once per model)", .badInput)
            }
            try await runAgainstBaseline(
                baseline, head: head, selection: picked, workspace: workspace, projectFolder: projectFolder, machineLoad: machineLoad)
            return
        }
        Recovery.recoverAbandonedJournals(in: head.reportsFolder)
        let loaded = try shardOf(SuiteFiles.select(SuiteFiles.load(for: head, info: output.info), picked))
        let plan = RunPlan(suites: loaded, settings: head.settings(selection: picked))
        let variants = runVariants(head, servedConfiguration)
        if servedConfiguration.kind != .openai, head.variants.count > 1 { try Workspace.checkModels(head) }
        printPlan(head, variants: variants.map(\.label), git: workspace.snapshot, plan: plan, machineLoad: machineLoad)

        let group = variants.count > 1 ? String(ResultWriter.newRunId().suffix(8)) : nil
        var finals: [RunRecord] = []
        var results: [URL] = []
        var stoppedAtOnce = false
        var variantsDone = 0
        for (index, variant) in variants.enumerated() {
            if variants.count > 1 { output.info("\nmodel \(index + 1) of \(variants.count): \(variant.label)") }
            // Loaded (or connected) one at a time: the previous model is freed before the next is loaded.
            let opened = try await openRuntime(variant, head, servedConfiguration)
            let runGroup = group.map { RunGroup(id: $0, index: index + 1, count: variants.count, label: variant.label) }
            output.info(RunHeader.render(opened.runtime.identity, cacheMode: head.cacheMode) + "\n")
            let outcome: RunOutcome
            if let levels = load.levels {
                outcome = try await runLoad(
                    levels, opened: opened, plan: plan, configuration: head, served: servedConfiguration,
                    group: runGroup, workspace: workspace, machineLoad: machineLoad)
            } else {
                outcome = try await runOnce(
                    opened, plan: plan, configuration: head, served: servedConfiguration, group: runGroup, workspace: workspace,
                    machineLoad: machineLoad)
            }
            await opened.connection?.shutdown()
            finals += outcome.records
            results += outcome.results
            stoppedAtOnce = outcome.cancelled
            if outcome.cancelled || outcome.records.contains(where: { $0.status == .incomplete }) { break }
            variantsDone += 1
        }

        try reportRuns(
            finals, results: results, stoppedAtOnce: stoppedAtOnce, finished: variantsDone == variants.count, workspace: workspace)
    }

    /// A record of one model's run of `plan` (its setting sources, shard and group set) and its
    /// result file, started: what an ordinary run and a run under load begin with.
    func startRecord(
        _ runtime: any ChatRuntime, sha256: String?, configuration: RunConfiguration, served: ServedConfiguration, plan: RunPlan,
        group: RunGroup?, workspace: Workspace, machineLoad: MachineLoad
    ) throws -> (RunRecord, ResultWriter) {
        var record = makeRecord(
            runtime, sha256: sha256, configuration: configuration, plan: plan, git: workspace.snapshot, machineLoad: machineLoad)
        record.settings.sources = sources(configuration, served)
        record.shard = load.parsedShard
        record.group = group
        return (record, try makeWriter(record, suites: plan.suites, folder: configuration.reportsFolder))
    }

    /// One model's ordinary run of `plan`, recorded as it goes.
    private func runOnce(
        _ opened: OpenedRuntime, plan: RunPlan, configuration head: RunConfiguration, served: ServedConfiguration, group: RunGroup?,
        workspace: Workspace, machineLoad: MachineLoad
    ) async throws -> RunOutcome {
        let (record, writer) = try startRecord(
            opened.runtime, sha256: opened.sha256, configuration: head, served: served, plan: plan, group: group, workspace: workspace,
            machineLoad: machineLoad)
        let runner = SuiteRunner(runtime: opened.runtime, plan: plan, keepsPrompts: printPrompt)
        let start = record
        let (recorded, cancelled) = try await execute(records: [record], writers: [writer], turns: plan.turnCount) { stop, progress in
            try await runner.run(into: [start], writers: [writer], stop: stop, observer: progress)
        }
        return RunOutcome(records: recorded, results: [writer.resultURL], cancelled: cancelled)
    }

    /// The report of the models' runs, where they went, the notes, then the exit they earned
    /// (`finished`: every model ran).
    private func reportRuns(_ finals: [RunRecord], results: [URL], stoppedAtOnce: Bool, finished: Bool, workspace: Workspace) throws {
        // The report is written before the notes, and its failure (exit 3) thrown after them: the run is recorded either way.
        // It is rendered from the records as their files give them back, so that `chateval report` of a file gives it again.
        let written = finals.map(\.asWritten)
        let reported = Result { try output.write(.runs(written)) { terminalReport(written) } }
        output.info("")
        for (index, url) in results.enumerated() {
            output.info((results.count > 1 ? "result \(index + 1)  " : "result    ") + url.path)
        }
        output.info("commit    \(finals.first?.git?.commit ?? "none (not a git repository)")")
        finals.forEach { addNote($0, workspace: workspace) }
        try reported.get()
        let paths = results.map(\.path).joined(separator: " and ")
        if stoppedAtOnce { throw failure("stopped: the turn in progress was cancelled; what was measured is in \(paths)", .stoppedAtOnce) }
        if finals.contains(where: { $0.status == .incomplete }) || !finished {
            throw failure("the run was interrupted; what was measured is in \(paths)", .runIncomplete)
        }
        if let shard = load.parsedShard {
            output.info("shard     \(shard): gates are decided when the shards are joined (`chateval merge`)")
            return
        }
        try Self.checkGates(finals)
    }

    private func resolve(project: ProjectFile?, projectFolder: URL) throws -> RunConfiguration {
        try RunConfiguration.resolveForCommand(overrides, project: project, projectFolder: projectFolder)
    }

    private var overrides: RunConfiguration.Overrides {
        runtime.overrides(
            suitePaths: suites.given, reportsFolder: recording.reportsFolder, cacheMode: cacheMode, repetitions: repetitions,
            maxRepetitions: maxRepetitions, timeBudget: timeBudget.flatMap(DurationText.seconds), warmup: warmup)
    }

    // MARK: Base and head in one job

    private func runAgainstBaseline(
        _ revision: String, head: RunConfiguration, selection picked: SuiteSelection, workspace: Workspace,
        projectFolder: URL, machineLoad: MachineLoad
    ) async throws {
        let headSuites = try SuiteFiles.select(SuiteFiles.load(head.suitePaths), picked)
        let side = try baselineSide(
            revision, head: head, headSuites: headSuites, selection: picked, workspace: workspace, projectFolder: projectFolder)
        let base = side.configuration
        // --repeat N fixes the count; otherwise repetitions are added in rounds until decided.
        let design = repetitions.map { SequentialDesign.fixed($0) } ?? SequentialDesign.rounds(maximum: head.maxRepetitions)
        let headPlan = RunPlan(suites: headSuites, settings: head.settings(selection: picked))
        let basePlan = RunPlan(suites: side.suites, settings: base.settings(selection: picked))
        printPlan(head, variants: head.variants.map(\.label), git: workspace.snapshot, plan: headPlan, machineLoad: machineLoad)
        let (headEngine, headSha) = try Workspace.loadRuntime(head, head.primary)
        let sameRuntime =
            head.runtimeConfiguration(head.primary) == base.runtimeConfiguration(base.primary)
            && base.primary.expectedSha256 == head.primary.expectedSha256
        let (baseEngine, baseSha) = sameRuntime ? (headEngine, headSha) : try Workspace.loadRuntime(base, base.primary)

        let headRecord = makeRecord(
            headEngine, sha256: headSha, configuration: head, plan: headPlan, git: workspace.snapshot, machineLoad: machineLoad)
        let baseRecord = makeRecord(
            baseEngine, sha256: baseSha, configuration: base, plan: basePlan, git: side.snapshot, machineLoad: machineLoad)
        Recovery.recoverAbandonedJournals(in: head.reportsFolder)
        let gate: BaselineGate
        do {
            gate = try BaselineGate(
                base: baseRecord, head: headRecord, baseSuites: side.suites, headSuites: headSuites,
                folder: URL(fileURLWithPath: head.reportsFolder))
        } catch {
            throw failure("cannot write results: \(error.description)", .runIncomplete)
        }
        output.info(RunHeader.render(headEngine.identity, cacheMode: head.cacheMode))
        output.info(
            "baseline  \(side.label) \"\(side.snapshot.subject ?? "")\": \(side.suites.count) suites from git, "
                + (sameRuntime ? "same model and settings" : "its own model or settings (\(baseEngine.identity.model.path))")
                + "; replayed interleaved with head")
        output.info(roundsLine(design, timeBudget: head.timeBudget))

        var paired = PairedRun(
            base: RunArm(label: "base", runtime: baseEngine, plan: basePlan),
            head: RunArm(label: "head", runtime: headEngine, plan: headPlan),
            design: design, timeBudget: head.timeBudget, keepsPrompts: printPrompt, settings: head.comparison,
            overrides: try comparison.overrides())
        paired.ledgerGates = head.project?.ledger ?? .default
        let declared = DeclaredExpectations(repository: side.repository, base: side.commit, head: workspace.snapshot?.commit)
        declared.warnings.forEach(warn)
        paired.expectations = declared.expectations
        if !declared.expectations.isEmpty {
            output.info(
                "expected  " + declared.expectations.map { "\($0.commit) \($0)" }.joined(separator: "; ")
                    + " (\(Expectation.trailerKey): accepted, not failed)")
        }
        let replay = paired
        let box = PairedOutcomeBox()
        let (finals, cancelled) = try await execute(
            records: gate.records, writers: gate.writers, turns: BaselineGate.turnsAtMost(replay), atMost: design.isSequential
        ) { stop, progress in
            let outcome = try await gate.run(replay, stop: stop, observer: progress)
            await box.set(outcome)
            return [outcome.base, outcome.head]
        }
        var result = BaselineGate.finishedComparison(await box.outcome, records: finals, cancelled: cancelled)
        result?.calibration = GateAuditStore.load(for: finals[1], reports: head.reportsFolder)
        try reportPaired(finals, comparison: result, cancelled: cancelled, writers: gate.writers, workspace: workspace)
    }

    /// REV's side of a paired run: its commit, and its project file and suites read from git (the
    /// working tree untouched) at the paths the working tree has, resolved with the command line.
    private struct BaselineSide {
        var repository: GitRepository
        var commit: String
        var snapshot: GitSnapshot
        var label: String
        var project: ProjectFile?
        var configuration: RunConfiguration
        var suites: [Suite]
    }

    private func baselineSide(
        _ revision: String, head: RunConfiguration, headSuites: [Suite], selection picked: SuiteSelection, workspace: Workspace,
        projectFolder: URL
    ) throws -> BaselineSide {
        guard let repository = workspace.repository else {
            throw failure("--baseline \(revision) needs a git repository; run inside one or pass --repo", .badInput)
        }
        let commit: String
        do {
            commit = try repository.resolveCommit(revision)
        } catch {
            throw failure("--baseline \(revision): \(error)", .badInput)
        }
        let snapshot = try repository.snapshot(ofCommit: commit)
        let label = snapshot.shortCommit ?? String(commit.prefix(7))
        let tree = CommitTree(repository: repository, commit: commit, label: label, root: workspace.root)
        // REV's project file, at the path the working tree's has; the command line applies to both sides.
        let projectPath =
            project.ignore ? nil : tree.relativePath(project.path ?? workspace.root.appendingPathComponent(ProjectFile.fileName).path)
        let baseProject = try projectPath.flatMap { try tree.projectFile(at: $0) }
        var base = try resolve(project: baseProject, projectFolder: projectFolder)
        base.reportsFolder = head.reportsFolder
        guard base.variants.count == 1 else {
            throw failure(
                "\(label)'s project file lists \(base.variants.count) models; --baseline compares one (name it with --model)", .badInput)
        }
        let suites = PairedRun.aligned(base: try tree.suites(base.suitePaths), toHead: headSuites, selection: picked)
        return BaselineSide(
            repository: repository, commit: commit, snapshot: snapshot, label: label, project: baseProject, configuration: base,
            suites: suites)
    }

    /// How the rounds will go: the looks and the time budget, or the count --repeat fixed.
    private func roundsLine(_ design: SequentialDesign, timeBudget: Double?) -> String {
        design.isSequential
            ? "rounds    up to \(design.maximum) repetitions per side (max_repetitions), "
                + "looking at \(design.looks.map(String.init).joined(separator: ", "))"
                + (timeBudget.map { $0 > 0 ? "; no round starts past \(DurationText.format($0)) (time_budget)" : "" } ?? "") + "\n"
            : "rounds    \(design.maximum) repetitions per side, fixed by --repeat\n"
    }

    /// The comparison's verdict first, then the head's run report (written before the note; its
    /// failure thrown after), rendered from the records (base, head) as their files give them
    /// back; then the exit the paired run earned.
    private func reportPaired(
        _ finals: [RunRecord], comparison result: Comparison?, cancelled: Bool, writers: [ResultWriter], workspace: Workspace
    ) throws {
        let (finalBase, finalHead) = (finals[0], finals[1])
        let (writtenBase, writtenHead) = (finalBase.asWritten, finalHead.asWritten)
        let reported = Result {
            try output.write(.runs([writtenHead], comparison: result, base: [writtenBase])) {
                (result.map {
                    "\n" + ComparisonReport.render($0, verbose: report.verbose) + "\n\n" + String(repeating: "─", count: 60)
                        + "\nthe head's run\n"
                } ?? "")
                    + "\n" + RunReport.render([writtenHead], options: report.options(showPrompts: printPrompt))
            }
        }
        output.info("\nresults   base \(writers[0].resultURL.path)\n          head \(writers[1].resultURL.path)")
        addNote(finalHead, workspace: workspace)
        if cancelled {
            throw failure(
                "stopped: the turn in progress was cancelled; "
                    + "what was measured is in \(writers[0].resultURL.path) and \(writers[1].resultURL.path)",
                .stoppedAtOnce)
        }
        if finalHead.status == .incomplete || finalBase.status == .incomplete {
            throw failure(
                "the run was interrupted; what was measured is in \(writers[0].resultURL.path) and \(writers[1].resultURL.path)",
                .runIncomplete)
        }
        try reported.get()
        guard let result else { return }
        try CompareCommand.exit(for: result, allowMismatch: mismatch.allowMismatch, undecided: comparison.undecided)
        try Self.checkGates([finalHead])
    }

    // MARK: Pieces

    /// A record of `plan` on the commit `git` describes, with `configuration`'s project file (see `RunRecordMaker`).
    func makeRecord(
        _ engine: any ChatRuntime, sha256: String?, configuration: RunConfiguration, plan: RunPlan, git: GitSnapshot?,
        machineLoad: MachineLoad
    ) -> RunRecord {
        RunRecordMaker(runtime: engine.identity, modelSha256: sha256, machineLoad: machineLoad).record(
            plan: plan, git: git, project: Workspace.record(of: configuration.project))
    }

    /// `RunRecordMaker.writer`; a result that cannot be started ends the run (exit 3).
    func makeWriter(_ record: RunRecord, suites: [Suite], folder: String) throws -> ResultWriter {
        do {
            return try RunRecordMaker.writer(record, suites: suites, folder: URL(fileURLWithPath: folder))
        } catch {
            throw failure("cannot write results: \(error.description)", .runIncomplete)
        }
    }

    /// What will run, printed before any model loads (a CI log shows it at once); `variants`
    /// are the labels of the models run side by side.
    private func printPlan(
        _ configuration: RunConfiguration, variants: [String], git: GitSnapshot?, plan: RunPlan, machineLoad: MachineLoad
    ) {
        let models = variants.count > 1 ? " × \(variants.count) models" : ""
        output.info(
            "plan      \(Format.count(plan.suites.count, "suite")), \(Format.count(plan.conversationCount, "conversation")), "
                + "\(Format.count(plan.turnCount, "turn")) "
                + "(\(Format.count(configuration.repetitions, "repetition")), \(configuration.warmup) warm-up)\(models)")
        if variants.count > 1 {
            for (index, label) in variants.enumerated() {
                output.info(Format.clip((index == 0 ? "models    " : "          ") + "\(index + 1). \(label)", RunReport.width))
            }
        }
        if let picked = plan.settings.selection {
            let parts =
                picked.patterns.map { "--filter \($0)" } + picked.tags.map { "--tag \($0)" }
                + picked.conversations.sorted { $0.key < $1.key }.map { "\($0.key)#\($0.value.joined(separator: ","))" }
            output.info("selected  \(parts.joined(separator: " "))")
        }
        output.info(Format.clip("commit    \(RunHeader.describe(git))", RunReport.width))
        if let project = configuration.project { output.info("project   \(project.source)") }
        output.info(Format.clip("machine   \(machineLoad.summary)", RunReport.width))
    }

    /// Runs with Ctrl-C and SIGTERM handled (see `InterruptTrap`); returns the records and whether
    /// the run was cancelled by a second signal. A result that cannot be written ends the run
    /// with exit 3, naming the file and how to recover what the journal kept.
    func execute(
        records: [RunRecord], writers: [ResultWriter], turns: Int, atMost: Bool = false,
        _ run: @escaping @Sendable (StopRequest, RunProgress) async throws -> [RunRecord]
    ) async throws -> ([RunRecord], Bool) {
        let stop = StopRequest()
        EngineCrashReport.setRecovery(
            journals: writers.map(\.journalURL.path), reportsFolder: writers.first?.journalURL.deletingLastPathComponent().path)
        defer { EngineCrashReport.setRecovery(journals: [], reportsFolder: nil) }
        // A first look after repetition 1 for a plain run; a paired run (two records) has its own looks.
        let progress = RunProgress(
            totalTurns: turns, repetitions: atMost ? 2 : records.first?.settings.repetitions ?? 1,
            suiteLinesToStandardOutput: output.terminalOnStandardOutput(), atMost: atMost, firstLook: records.count == 1)
        let task = Task { try await run(stop, progress) }
        // The first signal's grace ending cancels the turn in progress too, but the run still ends
        // as interrupted (exit 3), not stopped at once (130): only the second signal is that.
        let stoppedNow = Atomic<Bool>(false)
        let trap = InterruptTrap(
            stop: stop, expire: { task.cancel() },
            cancel: {
                stoppedNow.store(true, ordering: .relaxed)
                task.cancel()
            })
        defer { withExtendedLifetime(trap) {} }
        do {
            var finals = try await task.value
            await progress.finish()
            // How busy the machine was at the end, added once the run is over.
            let end = MachineLoad.sample()
            for index in finals.indices {
                finals[index].environment?.end = end
                try? writers[index].write(finals[index])
            }
            return (finals, stoppedNow.load(ordering: .relaxed))
        } catch {
            await progress.finish()
            let journals = writers.map(\.journalURL.path).joined(separator: " and ")
            let what = (error as? ResultWriteError)?.description ?? error.localizedDescription
            throw failure(
                "could not write \(what); the turns finished before are kept in \(journals): once there is room, "
                    + "`chateval recover` turns it into a result file", .runIncomplete)
        }
    }

    /// Adds the run to its commit's git note when asked, or says why it cannot.
    func addNote(_ record: RunRecord, workspace: Workspace) {
        guard recording.gitNote else { return }
        guard let repository = workspace.repository, let snapshot = workspace.snapshot else {
            warn("no git note was added: not inside a git repository")
            return
        }
        guard let commit = snapshot.commit else {
            warn("no git note was added: the repository has no commits yet")
            return
        }
        guard !snapshot.isDirty else {
            warn(
                "no git note was added: the working tree has \(snapshot.modifiedCount) uncommitted change(s), "
                    + "so the run does not measure \(snapshot.shortCommit ?? commit)"
            )
            return
        }
        do {
            try repository.appendNote(try RunNote.line(for: record), to: commit)
            output.info(
                "note      added to \(snapshot.shortCommit ?? commit) under \(GitRepository.chatEvalNotesRef) "
                    + "(share it: git push origin 'refs/notes/*')"
            )
        } catch {
            warn("could not add the git note: \(error)")
        }
    }

    /// Exit 1 naming every failed gate of `records` (with the model where several ran side by side).
    static func checkGates(_ records: [RunRecord]) throws {
        let failed = GateEvaluator.failures(records)
        guard failed.isEmpty else { throw failure("gate failed — " + failed.joined(separator: "; "), .gateFailed) }
    }
}

extension CacheMode: ExpressibleByArgument {}
extension SlidingWindowCache: ExpressibleByArgument {}

/// Carries a paired run's outcome out of the task that ran it.
private actor PairedOutcomeBox {
    private(set) var outcome: PairedRun.Outcome?
    func set(_ outcome: PairedRun.Outcome) { self.outcome = outcome }
}
