import ChatEvalCompare
import ChatEvalCore
import ChatEvalGit
import ChatEvalLlama
import ChatEvalOpenAI
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation
import Synchronization

/// `chateval run`: everything the command does once its options are read — the workspace opened,
/// settings resolved, the suites replayed (one model, several side by side, under load, a shard,
/// a cache verification, or a gate against a baseline), recorded, reported, and the exit earned
/// thrown as a `CommandFailure`.
package struct RunJob: Sendable {
    /// The repository to record against, the project file and the command line's settings.
    package var settings: WorkspaceRequest
    package var served: ServedOverrides
    package var selection: SuiteSelection
    package var load: LoadRequest
    /// `--baseline REV`: also replay REV's suites and compare (nil for a plain run).
    package var baseline: String?
    /// `--repeat N` with a baseline: a fixed count instead of rounds.
    package var fixedRepetitions: Int?
    package var comparisonOverrides: ComparisonOverrides
    package var gate: GatePolicy
    package var reportOptions: RunReportOptions
    package var output: ReportOutput
    /// Keep each turn's rendered prompt in the record (`--print-prompt`).
    package var keepsPrompts: Bool
    package var gitNote: Bool
    package var verifyCache: Bool
    package var requireQuiet: Bool
    /// Print each in-process model's memory split after its run (`--memory-attribution`).
    package var attributesMemory: Bool

    package init(
        settings: WorkspaceRequest, served: ServedOverrides,
        selection: SuiteSelection, load: LoadRequest, baseline: String?, fixedRepetitions: Int?, comparisonOverrides: ComparisonOverrides,
        gate: GatePolicy, reportOptions: RunReportOptions, output: ReportOutput, keepsPrompts: Bool, gitNote: Bool, verifyCache: Bool,
        requireQuiet: Bool, attributesMemory: Bool = false
    ) {
        self.settings = settings
        self.served = served
        self.selection = selection
        self.load = load
        self.baseline = baseline
        self.fixedRepetitions = fixedRepetitions
        self.comparisonOverrides = comparisonOverrides
        self.gate = gate
        self.reportOptions = reportOptions
        self.output = output
        self.keepsPrompts = keepsPrompts
        self.gitNote = gitNote
        self.verifyCache = verifyCache
        self.requireQuiet = requireQuiet
        self.attributesMemory = attributesMemory
    }

    /// Runs what was asked: a cache verification, a gate against a baseline, or a plain run
    /// (one model or several side by side, under load, or a shard); throws the exit it earned.
    package func run() async throws {
        // Sampled from now until the model has loaded (at least half a second): the wait overlaps the load.
        let start = StartLoad()
        let workspace = try settings.open()
        let cacheFault = try Self.cacheFaultFromEnvironment()
        var head = try settings.configuration(workspace.project, root: workspace.root)
        head.cacheFault = cacheFault
        head.attributesMemory = attributesMemory
        let servedConfiguration = try ServedConfiguration.resolve(served, project: workspace.project)
        try checkLoadAndShard(
            servedConfiguration, models: servedConfiguration.kind == .openai ? servedConfiguration.modelNames.count : head.variants.count)

        if verifyCache {
            _ = try machineLoad(start, line: false)
            try await verifyCaches(head, selection: selection, served: servedConfiguration)
            return
        }
        if let baseline {
            guard head.variants.count == 1 else {
                throw failure("--baseline compares one model; \(head.variants.count) are given (run the gate once per model)", .badInput)
            }
            try await runAgainstBaseline(
                baseline, head: head, selection: selection, workspace: workspace, start: start)
            return
        }
        Recovery.recoverAbandonedJournals(in: head.reportsFolder)
        let loaded = try shardOf(SuiteFiles.select(SuiteFiles.load(for: head, info: output.info), selection))
        let plan = RunPlan(suites: loaded, settings: head.settings(selection: selection))
        let variants = runVariants(head, servedConfiguration)
        if servedConfiguration.kind != .openai, head.variants.count > 1 { try Workspace.checkModels(head) }
        printPlan(head, variants: variants.map(\.label), git: workspace.snapshot, plan: plan)

        let group = variants.count > 1 ? String(ResultWriter.newRunId().suffix(8)) : nil
        var finals: [RunRecord] = []
        var results: [URL] = []
        var stoppedAtOnce = false
        var variantsDone = 0
        for (index, variant) in variants.enumerated() {
            if variants.count > 1 { output.info("\nmodel \(index + 1) of \(variants.count): \(variant.label)") }
            // Loaded (or connected) one at a time: the previous model is freed before the next is loaded.
            EngineHold.releaseAll(after: results.map(\.path))
            let opened = try await openRuntime(variant, head, servedConfiguration)
            let machineLoad = try machineLoad(start)
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
            printMemoryAttribution(opened.runtime)
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
        record.shard = load.shard
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
        let runner = SuiteRunner(runtime: opened.runtime, plan: plan, keepsPrompts: keepsPrompts)
        let start = record
        let (recorded, cancelled) = try await execute(records: [record], writers: [writer], turns: plan.turnCount) { stop, progress in
            try await runner.run(into: [start], writers: [writer], stop: stop, observer: progress)
        }
        return RunOutcome(records: recorded, results: [writer.resultURL], cancelled: cancelled)
    }

    /// The report of the models' runs, where they went, the notes, then the exit they earned
    /// (`finished`: every model ran).
    private func reportRuns(_ finals: [RunRecord], results: [URL], stoppedAtOnce: Bool, finished: Bool, workspace: Workspace) throws {
        // The report is written before the notes, and its failure (exit 3) said at once and thrown after them, unless a stop
        // or an interruption ends the run: the run is recorded either way.
        // It is rendered from the records as their files give them back, so that `chateval report` of a file gives it again.
        let written = finals.map(\.asWritten)
        let unwritten = reportFailure(Result { try output.write(.runs(written)) { terminalReport(written) } })
        output.info("")
        for (index, url) in results.enumerated() {
            output.info((results.count > 1 ? "result \(index + 1)  " : "result    ") + url.path)
        }
        output.info("commit    \(finals.first?.git?.commit ?? "none (not a git repository)")")
        finals.forEach { addNote($0, workspace: workspace) }
        let paths = results.map(\.path).joined(separator: " and ")
        if stoppedAtOnce { throw failure("stopped: the turn in progress was cancelled; what was measured is in \(paths)", .stoppedAtOnce) }
        if finals.contains(where: { $0.status == .incomplete }) || !finished {
            throw failure("the run was interrupted; what was measured is in \(paths)", .runIncomplete)
        }
        if let unwritten { throw unwritten }
        if let shard = load.shard {
            output.info("shard     \(shard): gates are decided when the shards are joined (`chateval merge`)")
            return
        }
        try GatePolicy.checkGates(finals)
    }
}
