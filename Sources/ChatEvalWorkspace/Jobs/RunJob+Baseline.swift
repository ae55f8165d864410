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

extension RunJob {
    // MARK: Base and head in one job

    func runAgainstBaseline(
        _ revision: String, head: RunConfiguration, selection picked: SuiteSelection, workspace: Workspace,
        start: StartLoad
    ) async throws {
        let headSuites = try SuiteFiles.select(SuiteFiles.load(head.suitePaths), picked)
        let side = try baselineSide(
            revision, head: head, headSuites: headSuites, selection: picked, workspace: workspace)
        let base = side.configuration
        // --repeat N fixes the count; otherwise repetitions are added in rounds until decided.
        let design = fixedRepetitions.map { SequentialDesign.fixed($0) } ?? SequentialDesign.rounds(maximum: head.maxRepetitions)
        let headPlan = RunPlan(suites: headSuites, settings: head.settings(selection: picked))
        let basePlan = RunPlan(suites: side.suites, settings: base.settings(selection: picked))
        printPlan(head, variants: head.variants.map(\.label), git: workspace.snapshot, plan: headPlan)
        EngineHold.releaseAll(after: [])  // what an earlier job of this process kept, before two more load
        let (headEngine, headSha) = try Workspace.loadRuntime(head, head.primary)
        let sameRuntime =
            head.runtimeConfiguration(head.primary) == base.runtimeConfiguration(base.primary)
            && base.primary.expectedSha256 == head.primary.expectedSha256
        let (baseEngine, baseSha) = sameRuntime ? (headEngine, headSha) : try Workspace.loadRuntime(base, base.primary)
        let machineLoad = try machineLoad(start)

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
            design: design, timeBudget: head.timeBudget, keepsPrompts: keepsPrompts, settings: head.comparison,
            overrides: comparisonOverrides)
        paired.ledgerGates = head.project?.ledger ?? .default
        let declared = DeclaredExpectations(
            repository: side.repository, base: side.commit, head: workspace.snapshot?.commit, inputs: side.inputs)
        declared.warnings.forEach(warn)
        paired.expectations = declared.expectations
        if !declared.expectations.isEmpty {
            output.info(
                "expected  "
                    + declared.expectations.map { "\($0.commit) \($0)" + ($0.notApplied == nil ? "" : " (not applied)") }
                    .joined(separator: "; ") + " (\(Expectation.trailerKey): what they accept is reported, not failed)")
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
        let (audit, problem) = GateAuditStore.read(for: finals[1], reports: head.reportsFolder)
        result?.calibration = audit
        problem.map(warn)
        // What else ends the job, for the verdict line: the head's own gates, and the policy for what is not decided.
        let failedGates = finals[1].failedGates
        result?.headGatesFailed = failedGates.isEmpty ? nil : failedGates
        result?.undecidedFails = self.gate.undecided == .fail ? true : nil
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
        /// What a commit changes of the run, relative to the root: the project file and the head's suite paths.
        var inputs: [String]
    }

    private func baselineSide(
        _ revision: String, head: RunConfiguration, headSuites: [Suite], selection picked: SuiteSelection, workspace: Workspace
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
        let projectPath = settings.projectPath(in: tree)
        let baseProject = try projectPath.flatMap { try tree.projectFile(at: $0) }
        var base = try settings.configuration(baseProject, root: workspace.root)
        base.reportsFolder = head.reportsFolder
        guard base.variants.count == 1 else {
            throw failure(
                "\(label)'s project file lists \(base.variants.count) models; --baseline compares one (name it with --model)", .badInput)
        }
        let suites = PairedRun.aligned(base: try tree.suites(base.suitePaths), toHead: headSuites, selection: picked)
        return BaselineSide(
            repository: repository, commit: commit, snapshot: snapshot, label: label, project: baseProject, configuration: base,
            suites: suites, inputs: (projectPath.map { [$0] } ?? []) + head.suitePaths.compactMap { tree.relativePath($0) })
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
        let unwritten = reportFailure(
            Result {
                try output.write(.runs([writtenHead], comparison: result, base: [writtenBase])) {
                    (result.map {
                        "\n" + ComparisonReport.render($0, verbose: reportOptions.verbose) + "\n\n" + String(repeating: "─", count: 60)
                            + "\nthe head's run\n"
                    } ?? "")
                        + "\n" + RunReport.render([writtenHead], options: reportOptions)
                }
            })
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
        if let unwritten { throw unwritten }
        guard let result else { return }
        try gate.check(result)
        try GatePolicy.checkGates([finalHead])
    }
}

/// Carries a paired run's outcome out of the task that ran it.
private actor PairedOutcomeBox {
    private(set) var outcome: PairedRun.Outcome?
    func set(_ outcome: PairedRun.Outcome) { self.outcome = outcome }
}
