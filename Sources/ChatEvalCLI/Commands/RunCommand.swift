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

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay suites against the model, measure every turn, record the run.",
        discussion: """
            Writes a result file under the reports folder (see reports/schema/run.schema.json). Settings come from the \
            command line, else the project file (chateval.yaml), else built-in defaults; the record says which.

            With --baseline REV, also replays REV's suites and project file (read from git, the working tree untouched) \
            in the same process, interleaved conversation by conversation, then compares the two runs as `chateval compare` \
            does: exit 1 on a regression. This is what a CI job should call.
            """)

    @OptionGroup var suites: SuiteOptions
    @OptionGroup var runtime: RuntimeOptions
    @OptionGroup var recording: RecordingOptions
    @OptionGroup var project: ProjectOptions

    @Option(name: .customLong("cache-mode"), help: "session: reuse the KV cache across turns, as a chat app does; cold: re-evaluate the whole history every turn.")
    var cacheMode: CacheMode?

    @Option(name: .customLong("repeat"), help: "Measured repetitions of every conversation (raw samples of each are recorded).")
    var repetitions: Int?

    @Option(name: .customLong("warmup"), help: "Conversations replayed first and not counted.")
    var warmup: Int?

    @Option(help: ArgumentHelp("Also replay this revision's suites and project file, interleaved, and compare (exit 1 on a regression).", valueName: "rev"))
    var baseline: String?

    @OptionGroup var comparison: ComparisonOptions
    /// --format / --output: the run's report (with --baseline, followed by the comparison) as terminal, json, markdown, junit, html.
    @OptionGroup var output: OutputOptions

    @Flag(name: .customLong("show-answers"), help: "Print every answer in full (default: an excerpt).")
    var showAnswers = false

    @Flag(name: .customLong("require-quiet"), help: "Refuse to run (exit 3) when other processes keep the machine busy; by default a busy machine is a warning.")
    var requireQuiet = false

    @Flag(help: "With --baseline: print the per-turn comparison too.")
    var verbose = false

    func validate() throws {
        if let repetitions, !(1...10_000).contains(repetitions) { throw ValidationError("--repeat must be at least 1 and at most 10000 (got \(repetitions))") }
        if let warmup, !(0...10_000).contains(warmup) { throw ValidationError("--warmup must be 0 or more and at most 10000 (got \(warmup))") }
    }

    func run() async throws {
        let machineLoad = MachineLoad.sample()
        if machineLoad.isBusy {
            if requireQuiet { throw failure("the machine is \(machineLoad.summary); timings taken now would carry their noise (--require-quiet)", .runIncomplete) }
            warn("the machine is \(machineLoad.summary): timings taken now carry their noise (--require-quiet refuses to run)")
        }
        let workspace = try Workspace.open(recording: recording, project: project)
        let projectFolder = project.path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() } ?? workspace.root
        let head = try RunConfiguration.resolve(overrides, project: workspace.project, projectFolder: projectFolder, warn: warn)

        if let baseline {
            try await runAgainstBaseline(baseline, head: head, workspace: workspace, projectFolder: projectFolder, machineLoad: machineLoad)
            return
        }
        Recovery.recoverAbandonedJournals(in: head.reportsFolder)
        let loaded = try SuiteFiles.load(head.suitePaths)
        let (engine, sha256) = try Workspace.loadRuntime(head)
        let plan = RunPlan(suites: loaded, settings: head.settings)
        let record = makeRecord(engine, sha256: sha256, configuration: head, git: workspace.snapshot, machineLoad: machineLoad)
        let writer = try makeWriter(record, suites: loaded, folder: head.reportsFolder)

        printHeader(engine, head, git: workspace.snapshot, plan: plan, machineLoad: machineLoad)
        let (finals, cancelled) = try await execute(SuiteRunner(runtime: engine, plan: plan), records: [record], writers: [writer])
        let final = finals[0]

        // The report is written before the note, and its failure (exit 3) thrown after it: the run is recorded either way.
        let reported = Result { try output.write(.runs([final])) { RunReport.render(final, showAnswers: showAnswers) } }
        output.info("\nresult    \(writer.resultURL.path)")
        output.info("commit    \(final.git?.commit ?? "none (not a git repository)")")
        addNote(final, workspace: workspace)
        try reported.get()
        if cancelled { throw failure("stopped: the turn in progress was cancelled; what was measured is in \(writer.resultURL.path)", .stoppedAtOnce) }
        if final.status == .incomplete { throw failure("the run was interrupted; what was measured is in \(writer.resultURL.path)", .runIncomplete) }
        try checkGates(final)
    }

    private var overrides: RunConfiguration.Overrides {
        RunConfiguration.Overrides(
            model: runtime.model, chatTemplate: runtime.chatTemplate, contextSize: runtime.contextSize, threads: runtime.threads,
            batchSize: runtime.batchSize, cacheMode: cacheMode, repetitions: repetitions, warmup: warmup,
            suitePaths: suites.given, reportsFolder: recording.reportsFolder)
    }

    // MARK: Base and head in one job

    private func runAgainstBaseline(_ revision: String, head: RunConfiguration, workspace: Workspace, projectFolder: URL,
                                    machineLoad: MachineLoad) async throws {
        guard let repository = workspace.repository else {
            throw failure("--baseline \(revision) needs a git repository; run inside one or pass --repo", .badInput)
        }
        let commit: String
        do {
            commit = try repository.resolveCommit(revision)
        } catch {
            throw failure("--baseline \(revision): \(error)", .badInput)
        }
        let baseSnapshot = try repository.snapshot(ofCommit: commit)
        let label = baseSnapshot.shortCommit ?? String(commit.prefix(7))
        let tree = CommitTree(repository: repository, commit: commit, label: label, root: workspace.root)

        // REV's project file, at the path the working tree's has; the command line applies to both sides.
        let projectPath = project.ignore ? nil : tree.relativePath(project.path ?? workspace.root.appendingPathComponent(ProjectFile.fileName).path)
        let baseProject = try projectPath.flatMap { try tree.projectFile(at: $0) }
        var base = try RunConfiguration.resolve(overrides, project: baseProject, projectFolder: projectFolder, warn: warn)
        base.reportsFolder = head.reportsFolder
        let baseSuites = try tree.suites(base.suitePaths)
        let headSuites = try SuiteFiles.load(head.suitePaths)

        let (headEngine, headSha) = try Workspace.loadRuntime(head)
        let sameRuntime = base.runtimeConfiguration == head.runtimeConfiguration && base.expectedModelSha256 == head.expectedModelSha256
        let (baseEngine, baseSha) = sameRuntime ? (headEngine, headSha) : try Workspace.loadRuntime(base)

        var headRecord = makeRecord(headEngine, sha256: headSha, configuration: head, git: workspace.snapshot, machineLoad: machineLoad)
        var baseRecord = makeRecord(baseEngine, sha256: baseSha, configuration: base, git: baseSnapshot, machineLoad: machineLoad)
        baseRecord.project = baseProject.map { ProjectFileRecord(path: $0.source, sha256: FileDigest.sha256(of: Data($0.text.utf8))) }
        headRecord.role = .head
        baseRecord.role = .baseline
        headRecord.pairedRunId = baseRecord.runId
        baseRecord.pairedRunId = headRecord.runId
        Recovery.recoverAbandonedJournals(in: head.reportsFolder)
        let writers = [try makeWriter(baseRecord, suites: baseSuites, folder: base.reportsFolder),
                       try makeWriter(headRecord, suites: headSuites, folder: head.reportsFolder)]

        let basePlan = RunPlan(suites: baseSuites, settings: base.settings)
        let headPlan = RunPlan(suites: headSuites, settings: head.settings)
        printHeader(headEngine, head, git: workspace.snapshot, plan: headPlan, machineLoad: machineLoad)
        output.info("baseline  \(label) \"\(Terminal.safe(baseSnapshot.subject ?? ""))\": \(baseSuites.count) suites from git, "
            + (sameRuntime ? "same model and settings" : "its own model or settings (\(Terminal.safe(baseEngine.identity.model.path)))")
            + "; replayed interleaved with head\n")

        let runner = SuiteRunner(arms: [RunArm(label: "base", runtime: baseEngine, plan: basePlan), RunArm(label: "head", runtime: headEngine, plan: headPlan)])
        let (finals, cancelled) = try await execute(runner, records: [baseRecord, headRecord], writers: writers)
        let (finalBase, finalHead) = (finals[0], finals[1])

        let finished = !cancelled && finalHead.status != .incomplete && finalBase.status != .incomplete
        var result: Comparison?
        if finished {
            result = RunComparator.compare(
                base: ComparedRuns(runs: [finalBase], sources: [writers[0].resultURL.path]),
                head: ComparedRuns(runs: [finalHead], sources: [writers[1].resultURL.path]),
                settings: head.comparison, commandLine: try comparison.overrides())
        }
        // The head's report, then the comparison (when both sides finished); written before the note, its failure thrown after.
        let reported = Result {
            try output.write(.runs([finalHead], comparison: result)) {
                RunReport.render(finalHead, showAnswers: showAnswers) + (result.map {
                    "\n\n" + String(repeating: "─", count: 60) + "\ncomparison with \(label)\n\n" + ComparisonReport.render($0, verbose: verbose)
                } ?? "")
            }
        }
        output.info("\nresults   base \(writers[0].resultURL.path)\n          head \(writers[1].resultURL.path)")
        addNote(finalHead, workspace: workspace)
        if cancelled {
            throw failure("stopped: the turn in progress was cancelled; what was measured is in \(writers[0].resultURL.path) and \(writers[1].resultURL.path)", .stoppedAtOnce)
        }
        if finalHead.status == .incomplete || finalBase.status == .incomplete {
            throw failure("the run was interrupted; what was measured is in \(writers[0].resultURL.path) and \(writers[1].resultURL.path)", .runIncomplete)
        }
        try reported.get()
        guard let result else { return }
        try CompareCommand.exit(for: result, allowMismatch: comparison.allowMismatch)
        try checkGates(finalHead)
    }

    // MARK: Pieces

    private func makeRecord(_ engine: LlamaChatRuntime, sha256: String?, configuration: RunConfiguration, git: GitSnapshot?,
                            machineLoad: MachineLoad) -> RunRecord {
        var record = RunRecord(
            runId: ResultWriter.newRunId(), startedAt: Date(), command: CommandLine.arguments, git: git,
            machine: MachineInfo.current(), runtime: engine.identity, modelSha256: sha256, settings: configuration.settings)
        record.project = Workspace.record(of: configuration.project)
        record.environment = RunEnvironment(start: machineLoad)
        return record
    }

    private func makeWriter(_ record: RunRecord, suites: [Suite], folder: String) throws -> ResultWriter {
        do {
            return try ResultWriter(folder: URL(fileURLWithPath: folder), record: record, suites: suites.map { SuiteSource(path: $0.path, text: $0.text) })
        } catch {
            throw failure("cannot write results: \(error.description)", .runIncomplete)
        }
    }

    private func printHeader(_ engine: LlamaChatRuntime, _ configuration: RunConfiguration, git: GitSnapshot?, plan: RunPlan, machineLoad: MachineLoad) {
        output.info(RunHeader.render(engine.identity, cacheMode: configuration.cacheMode))
        output.info("machine   \(machineLoad.summary)")
        output.info("commit    \(RunHeader.describe(git))")
        if let project = configuration.project { output.info("project   \(project.source)") }
        output.info("plan      \(plan.suites.count) suites, \(plan.conversationCount) conversations, \(plan.turnCount) turns "
            + "(\(configuration.repetitions) repetitions, \(configuration.warmup) warm-up)\n")
    }

    /// Runs with Ctrl-C and SIGTERM handled (see `InterruptTrap`); returns the records and whether
    /// the run was cancelled by a second signal. A result that cannot be written ends the run
    /// with exit 3, naming the file and how to recover what the journal kept.
    private func execute(_ runner: SuiteRunner, records: [RunRecord], writers: [ResultWriter]) async throws -> ([RunRecord], Bool) {
        let stop = StopRequest()
        let turns = zip(runner.arms, records).reduce(0) { $0 + $1.0.plan.turnCount }
        let progress = RunProgress(totalTurns: turns)
        let task = Task { try await runner.run(into: records, writers: writers, stop: stop, observer: progress) }
        let trap = InterruptTrap(stop: stop) { task.cancel() }
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
            return (finals, task.isCancelled)
        } catch {
            await progress.finish()
            let journals = writers.map(\.journalURL.path).joined(separator: " and ")
            let what = (error as? ResultWriteError)?.description ?? error.localizedDescription
            throw failure("could not write \(what); the turns finished before are kept in \(journals): once there is room, "
                + "`chateval recover` turns it into a result file", .runIncomplete)
        }
    }

    /// Adds the run to its commit's git note when asked, or says why it cannot.
    private func addNote(_ record: RunRecord, workspace: Workspace) {
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
            warn("no git note was added: the working tree has \(snapshot.modifiedCount) uncommitted change(s), so the run does not measure \(snapshot.shortCommit ?? commit)")
            return
        }
        do {
            try repository.appendNote(try RunNote.line(for: record), to: commit)
            output.info("note      added to \(snapshot.shortCommit ?? commit) under \(GitRepository.chatEvalNotesRef) (share it: git push origin 'refs/notes/*')")
        } catch {
            warn("could not add the git note: \(error)")
        }
    }

    private func checkGates(_ record: RunRecord) throws {
        guard record.gatesPassed == false else { return }
        let failed = record.suites.flatMap { suite in suite.gates.filter { !$0.passed }.map { "\(suite.name): \($0.gate) \($0.expected), found \($0.found)" } }
        throw failure("gate failed — " + failed.joined(separator: "; "), .gateFailed)
    }
}

extension CacheMode: ExpressibleByArgument {}
