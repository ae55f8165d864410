import ArgumentParser
import ChatEvalCompare
import ChatEvalCore
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// `chateval calibrate`: the gate measures itself on this machine and model. The suites are
/// replayed against themselves (A/A: the same suites, model and settings on both sides) with the
/// gate's own design, a number of times; every regression reported is a false alarm. What it
/// found is kept under the reports folder and printed by every later comparison of this machine
/// class and model, with the thresholds it cannot resolve flagged.
struct CalibrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Measure the gate on this machine: A/A false alarms, each metric's noise, the smallest change it detects.",
        discussion: """
            Each comparison is what `run --baseline` does with the working tree on both sides: interleaved replays in rounds \
            until decided (or --repeat N fixed), at the project's thresholds and false-alarm rate. It takes the comparisons' \
            count times one gate's time: calibrate a subset (--filter, --tag) where the suites are long. Writes \
            <reports>/.chateval/calibration/gate-<machine and model>.json; replays are kept in a scratch folder and removed.

            Examples:
              chateval calibrate
                  the project's suites and model, 110 comparisons
              chateval calibrate --comparisons 20 --repeat 3
                  a quick look: every rate is printed with its 95% interval
              chateval calibrate suites/smoke.yaml --max-repeat 15
            """)

    @OptionGroup var suites: SuiteOptions
    @OptionGroup var selection: SelectionOptions
    @OptionGroup var runtime: RuntimeOptions
    @OptionGroup var recording: RecordingOptions
    @OptionGroup var project: ProjectOptions
    @OptionGroup var comparison: ComparisonOptions
    /// Accepted as it always was; an A/A comparison on one machine is always measured alike.
    @OptionGroup var mismatch: MismatchOptions

    /// 110 by default: 0 or 1 false alarms of 110 put the 95% Clopper–Pearson upper bound below
    /// 5% (3.3% and 4.96%; 0 of 72 is the least that does for 0 alarms, 1 of 110 for 1), so a gate
    /// holding 1% (1.1 alarms expected) shows as under 5% in 70% of calibrations. At 10, 0 of 10
    /// has an upper bound of 31%: nothing is told apart.
    static let defaultComparisons = 110

    @Option(
        help: ArgumentHelp(
            "A/A comparisons to run (\(Self.defaultComparisons): 0 or 1 false alarms then bound the rate below 5%).", valueName: "n"))
    var comparisons = Self.defaultComparisons
    @Option(name: .customLong("repeat"), help: "A fixed number of repetitions per side instead of rounds.") var repetitions: Int?
    @Option(name: .customLong("max-repeat"), help: "The most repetitions per side the rounds may add (default: max_repetitions, else 30).")
    var maxRepetitions: Int?
    @Option(
        name: .customLong("time-budget"),
        help: ArgumentHelp(
            "Per comparison: start no round that would end past this (default: time_budget, else 20m).", valueName: "duration"))
    var timeBudget: String?

    func validate() throws {
        if !(1...1000).contains(comparisons) { throw ValidationError("--comparisons must be between 1 and 1000 (got \(comparisons))") }
        if let repetitions, !(1...10_000).contains(repetitions) {
            throw ValidationError("--repeat must be at least 1 and at most 10000 (got \(repetitions))")
        }
        if let maxRepetitions, !(2...10_000).contains(maxRepetitions) {
            throw ValidationError("--max-repeat must be at least 2 and at most 10000 (got \(maxRepetitions))")
        }
        if let timeBudget, DurationText.seconds(timeBudget) == nil {
            throw ValidationError("--time-budget \(timeBudget): not a duration; write e.g. 20m or 90s")
        }
    }

    func run() async throws {
        let workspace = try Workspace.open(recording: recording, project: project)
        let projectFolder = project.path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() } ?? workspace.root
        let overrides = runtime.overrides(
            suitePaths: suites.given, reportsFolder: recording.reportsFolder, maxRepetitions: maxRepetitions,
            timeBudget: timeBudget.flatMap(DurationText.seconds))
        let configuration = try RunConfiguration.resolveForCommand(overrides, project: workspace.project, projectFolder: projectFolder)
        guard configuration.variants.count == 1 else {
            throw failure("calibrate measures one model; \(configuration.variants.count) are given", .badInput)
        }
        let picked = selection.selection(suites)
        let loaded = try SuiteFiles.select(SuiteFiles.load(configuration.suitePaths), picked)
        let plan = RunPlan(suites: loaded, settings: configuration.settings(selection: picked))
        let design = repetitions.map { SequentialDesign.fixed($0) } ?? SequentialDesign.rounds(maximum: configuration.maxRepetitions)
        let settings = configuration.comparison.applying(try comparison.overrides())
        let (engine, sha256) = try Workspace.loadRuntime(configuration, configuration.primary)
        let load = MachineLoad.sample()
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
                design: design, timeBudget: configuration.timeBudget, settings: settings)
            let stop = StopRequest()
            let task = Task { try await gate.run(paired, stop: stop, observer: nil) }
            let trap = InterruptTrap(stop: stop) { task.cancel() }
            let outcome = try await task.value
            withExtendedLifetime(trap) {}
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
            results, design: design, settings: settings, machine: MachineInfo.current().performanceClass, modelSha256: sha256,
            model: URL(fileURLWithPath: engine.identity.model.path).lastPathComponent, commit: workspace.snapshot?.commit)
        let url = GateAuditStore.url(
            machine: audit.machine, modelSha256: sha256, model: engine.identity.model.path, reports: configuration.reportsFolder)
        do {
            try GateAuditStore.save(audit, to: url)
        } catch {
            throw failure("cannot write \(url.path): \(error)", .runIncomplete)
        }
        say("")
        say(Self.render(audit, settings: settings))
        say("\nwritten   \(url.path)")
    }

    static func render(_ audit: GateAudit, settings: ComparisonSettings) -> String {
        var lines = ["gate      " + ComparisonReport.auditSentence(audit)]
        let used = audit.repetitionsUsed.sorted()
        if let median = Distribution(used.map(Double.init))?.median {
            lines.append(
                String(
                    format: "          %d of %d comparisons decided (%@); repetitions per side: median %.0f, %d to %d",
                    audit.decided, audit.comparisons, Self.interval(audit.decided, audit.comparisons), median, used.first ?? 0,
                    used.last ?? 0))
        }
        if audit.replaysLeftOut > 0 {
            lines.append(
                "          \(audit.replaysLeftOut) of \(audit.replaysMeasured) replays were measured while other processes held the cores")
        }
        lines.append("")
        var table = TextTable([
            .init("suite", .left), .init("metric", .left), .init("replay noise"), .init("detects at \(audit.looks.last ?? 0) reps"),
            .init("threshold"), .init("false alarms"),
        ])
        for noise in audit.metrics {
            let relative = noise.scale == .relative
            let threshold =
                settings.thresholds[noise.metric].map {
                    relative ? String(format: "%.0f%%", $0.relative * 100) : String(format: "%.3f", $0.absolute)
                } ?? "–"
            table.add([
                noise.suite, noise.metric.name,
                relative ? String(format: "%.1f%%", expm1(noise.spread) * 100) : String(format: "%.3f", noise.spread),
                relative ? String(format: "≥ %.1f%%", noise.detectable * 100) : String(format: "≥ %.3f", noise.detectable),
                threshold, "\(noise.falseAlarms)/\(audit.comparisons) \(Self.interval(noise.falseAlarms, audit.comparisons))",
            ])
        }
        lines.append(table.render(indent: "  "))
        lines.append("  (rates: 95% Clopper–Pearson intervals; detects: 90% power at the last look, never under the threshold)")
        for warning in audit.thresholdWarnings(settings) { lines.append("⚠ " + warning) }
        return lines.joined(separator: "\n")
    }

    /// "0.0% [0.0%, 3.3%]": a count of `trials` as a rate with its 95% interval.
    static func interval(_ count: Int, _ trials: Int) -> String {
        ClopperPearson(successes: count, trials: trials)?.percentText() ?? "–"
    }
}
