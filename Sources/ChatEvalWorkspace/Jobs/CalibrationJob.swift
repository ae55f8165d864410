import ChatEvalCompare
import ChatEvalCore
import ChatEvalGit
import ChatEvalOpenAI
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// `chateval calibrate`: the gate measured on this machine and model by A/A comparisons (see the
/// command's help).
package struct CalibrationJob: Sendable {
    package var settings: WorkspaceRequest
    package var selection: SuiteSelection
    package var comparisons: Int
    /// `--repeat N`: a fixed count per side instead of rounds.
    package var fixedRepetitions: Int?
    package var comparisonOverrides: ComparisonOverrides

    package init(
        settings: WorkspaceRequest, selection: SuiteSelection,
        comparisons: Int, fixedRepetitions: Int?, comparisonOverrides: ComparisonOverrides
    ) {
        self.settings = settings
        self.selection = selection
        self.comparisons = comparisons
        self.fixedRepetitions = fixedRepetitions
        self.comparisonOverrides = comparisonOverrides
    }

    /// Runs the comparisons, prints each, saves the audit and prints it.
    package func run() async throws {
        let workspace = try settings.open()
        let configuration = try settings.configuration(workspace.project, root: workspace.root)
        guard configuration.variants.count == 1 else {
            throw failure("calibrate measures one model; \(configuration.variants.count) are given", .badInput)
        }
        let loaded = try SuiteFiles.select(SuiteFiles.load(configuration.suitePaths), selection)
        let plan = RunPlan(suites: loaded, settings: configuration.settings(selection: selection))
        let design = fixedRepetitions.map { SequentialDesign.fixed($0) } ?? SequentialDesign.rounds(maximum: configuration.maxRepetitions)
        let gateSettings = configuration.comparison.applying(comparisonOverrides)
        EngineHold.releaseAll(after: [])  // what an earlier job of this process kept, before this one loads
        let start = StartLoad()  // sampled while the model loads (at least half a second)
        let (engine, sha256) = try Workspace.loadRuntime(configuration, configuration.primary)
        let load = start.load().load
        say(
            "calibrate \(comparisons) A/A comparisons of \(Format.count(loaded.count, "suite")) "
                + "(\(Format.count(plan.turnCount, "turn")) a repetition), "
                + (design.isSequential
                    ? "in rounds up to \(design.maximum) repetitions per side" : "\(design.maximum) repetitions per side"))
        say(Format.clip("machine   \(load.summary)", RunReport.width))
        say(RunHeader.render(engine.identity, cacheMode: configuration.cacheMode))

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-calibrate-\(ResultWriter.newRunId())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var results: [Comparison] = []
        let maker = RunRecordMaker(runtime: engine.identity, modelSha256: sha256, machineLoad: load)
        let project = Workspace.record(of: configuration.project)
        for index in 1...comparisons {
            let gate: BaselineGate
            do {
                gate = try BaselineGate(
                    base: maker.record(plan: plan, git: workspace.snapshot, project: project),
                    head: maker.record(plan: plan, git: workspace.snapshot, project: project), baseSuites: loaded, headSuites: loaded,
                    folder: scratch)
            } catch {
                throw failure("cannot write to the scratch folder \(scratch.path): \(error)", .runIncomplete)
            }
            let paired = PairedRun(
                base: RunArm(label: "base", runtime: engine, plan: plan), head: RunArm(label: "head", runtime: engine, plan: plan),
                design: design, timeBudget: configuration.timeBudget, settings: gateSettings)
            let stop = StopRequest()
            let outcome = try await InterruptTrap.run(stop: stop) { try await gate.run(paired, stop: stop, observer: nil) }.value
            guard let result = outcome.comparison, outcome.sequential.stop != .interrupted else {
                throw failure("calibration interrupted after \(results.count) comparisons; nothing was written", .runIncomplete)
            }
            results.append(result)
            let regressed = result.metricRegressions.map { "\($0.suite) \($0.change.metric.name)" }
            say(
                String(
                    format: "%3d/%d  %@ at %d repetitions per side (%@)", index, comparisons,
                    regressed.isEmpty ? "no regression" : "FALSE ALARM: " + regressed.joined(separator: ", "),
                    outcome.sequential.repetitions, Format.duration(outcome.sequential.seconds)))
        }

        let audit = GateAudit.measure(
            results, design: design, settings: gateSettings, machine: MachineInfo.current().performanceClass, modelSha256: sha256,
            model: URL(fileURLWithPath: engine.identity.model.path).lastPathComponent, commit: workspace.snapshot?.commit)
        let url = GateAuditStore.url(
            machine: audit.machine, modelSha256: sha256, model: engine.identity.model.path, reports: configuration.reportsFolder)
        do {
            try GateAuditStore.save(audit, to: url)
        } catch {
            throw failure("cannot write \(url.path): \(error)", .runIncomplete)
        }
        say("")
        say(GateAuditReport.render(audit, settings: gateSettings))
        say("\nwritten   \(url.path)")
    }
}
