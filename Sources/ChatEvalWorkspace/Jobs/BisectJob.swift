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

/// `chateval bisect GOOD BAD`: everything the command does once its options are read (see the
/// command's help for what a bisection is).
package struct BisectJob: Sendable {
    package var good: String
    package var bad: String
    /// The repository, the project file and the command line's settings (applied to every commit's project file).
    package var settings: WorkspaceRequest
    package var selection: SuiteSelection
    package var maxRepetitions: Int
    package var confidence: Double
    /// Measure every probe again, ignoring the journal.
    package var fresh: Bool
    /// `--build` and `--serve`: the runtime built and served from each probed commit.
    package var buildCommand: String?
    package var serveCommand: String?
    /// `--time-budget`: seconds after which no new probe starts (nil: the project file's
    /// `time_budget`, else `defaultTimeBudget`).
    package var timeBudget: Double?
    /// `--build-timeout` and `--serve-ready-timeout`, in seconds.
    package var buildTimeout = ServedRevisions.defaultBuildTimeout
    package var readyTimeout = ServedRevisions.defaultReadyTimeout
    package var output: ReportOutput

    /// A bisection's time budget when neither the command line nor the project file sets one.
    package static let defaultTimeBudget = 30.0 * 60

    package init(
        good: String, bad: String, settings: WorkspaceRequest,
        selection: SuiteSelection, maxRepetitions: Int, confidence: Double, fresh: Bool, buildCommand: String?, serveCommand: String?,
        timeBudget: Double? = nil, output: ReportOutput
    ) {
        self.timeBudget = timeBudget
        self.good = good
        self.bad = bad
        self.settings = settings
        self.selection = selection
        self.maxRepetitions = maxRepetitions
        self.confidence = confidence
        self.fresh = fresh
        self.buildCommand = buildCommand
        self.serveCommand = serveCommand
        self.output = output
    }

    /// Reads the range, bisects it (resuming from the journal unless `fresh`), writes the report
    /// and throws the exit the outcome earned.
    package func run() async throws {
        // Sampled from now until the first probe (at least half a second): the wait overlaps reading the range.
        let start = StartLoad()
        let workspace = try settings.open()
        guard let repository = workspace.repository else {
            throw failure("bisect needs a git repository; run inside one or pass --repo", .badInput)
        }
        let head = try settings.configuration(workspace.project, root: workspace.root)
        let tree = CommitTree(repository: repository, commit: bad, label: bad, root: workspace.root)
        let projectPath = settings.projectPath(in: tree)
        // With --serve the runtime is built from the repository: any file may change what is measured.
        let inputs = serveCommand != nil ? nil : (projectPath.map { [$0] } ?? []) + head.suitePaths.compactMap { tree.relativePath($0) }
        let range = try BisectRange.read(
            good: good, bad: bad, repository: repository, root: workspace.root, inputs: inputs, projectPath: projectPath,
            selection: selection, configure: { try settings.configuration($0, root: workspace.root) })
        let unloadableCount = range.revisions.filter { $0.unmeasurable != nil }.count
        output.info(
            "bisect    \(range.states.first?.shortId ?? good)..\(range.states.last?.shortId ?? bad): "
                + "\(Format.count(range.states.count - 1, "commit")) to measure, \(range.skipped.count) skipped (no replayed work changed)"
                + (unloadableCount > 0 ? ", \(unloadableCount) that do not load (skipped)" : ""))
        for (state, revision) in zip(range.states, range.revisions) {
            if let reason = revision.unmeasurable {
                output.info("skipped: \(state.shortId) \"\(Format.clip(state.subject, 48))\" — \(reason)")
            }
        }

        guard range.states.count > 1 else {
            throw failure(
                "no commit after \(good) up to \(bad) changes what is replayed (the project file or a suite as parsed): every one replays "
                    + "the same, "
                    + "so what changed lies outside the repository (the engine build, the model file, the machine)", .noVerdict)
        }
        let folder = URL(fileURLWithPath: head.reportsFolder)
        let runtimes = try runtimes(range, root: workspace.root, folder: folder)
        if serveCommand == nil { try await Self.checkEnds(range, runtimes, good: good, bad: bad) }
        let journalURL = folder.appendingPathComponent(
            ".chateval/bisect-\(range.states[0].shortId)-\(range.states.last?.shortId ?? "").json")
        let fingerprint = Self.fingerprint(
            range, arithmetic: Self.arithmetic(served: serveCommand != nil), settings: head.comparison, maxRepetitions: maxRepetitions,
            confidence: confidence)
        let budget = timeBudget ?? (head.sources["time_budget"] == .projectFile ? head.timeBudget : nil) ?? Self.defaultTimeBudget
        let deadline = PairedRun.now() + budget
        let (journal, refused) =
            fresh ? (BisectJournal(fingerprint: fingerprint), nil) : BisectJournal.read(journalURL, fingerprint: fingerprint)
        if let refused { warn(refused) }
        if !journal.probes.isEmpty { output.info("resuming  \(Format.count(journal.probes.count, "probe")) kept in \(journalURL.path)") }
        try? FileManager.default.createDirectory(at: journalURL.deletingLastPathComponent(), withIntermediateDirectories: true)

        let stop = StopRequest()
        let prober = RevisionProber(
            revisions: range.revisions, runtimes: runtimes, gate: head.comparison, design: .rounds(maximum: maxRepetitions),
            timeBudget: head.timeBudget, deadline: deadline, machineLoad: start.load().load,
            folder: folder, journal: journal, journalURL: journalURL, stop: stop)
        output.info("budget    no probe starts after \(DurationText.format(budget)) (--time-budget)")
        let unloadable = range.revisions.enumerated().reduce(into: [Int: String]()) { found, item in
            if let reason = item.element.unmeasurable { found[item.offset] = reason }
        }
        let bisector = Bisector(
            states: range.states, skipped: range.skipped, unmeasurable: unloadable, errorRate: 1 - confidence, deadline: deadline,
            clock: { PairedRun.now() })
        var outcome = try await measure(bisector, prober, runtimes: runtimes, stop: stop, journalURL: journalURL)
        outcome.bad = range.bad
        try output.write(.bisect(outcome)) { BisectReport.render(outcome) }
        try Self.exit(for: outcome, good: good, bad: bad, budget: budget, journal: journalURL)
    }

    /// Runs the bisection with SIGINT and SIGTERM handled — with `--serve`, by ending the build
    /// and servers at once and exiting 130 or 143 (`ProcessGroupTrap`: a hanging build cannot
    /// finish its turn); in process, as a run is (`InterruptTrap`) — and the served commits'
    /// trees removed (their groups ended) however it ends.
    private func measure(
        _ bisector: Bisector, _ prober: RevisionProber, runtimes: any RevisionRuntimes, stop: StopRequest, journalURL: URL
    ) async throws -> BisectOutcome {
        let info = output
        let served = runtimes as? ServedRevisions
        let trap = served.map { _ in
            ProcessGroupTrap(note: "the finished probes are kept in \(journalURL.path): run the same command to resume")
        }
        defer { withExtendedLifetime(trap) {} }
        let outcome: BisectOutcome
        do {
            if trap != nil {
                outcome = try await bisector.run(prober) { info.info($0) }
            } else {
                outcome = try await InterruptTrap.run(stop: stop) { try await bisector.run(prober) { info.info($0) } }.value
            }
        } catch {
            await trap?.awaitExitIfFired()
            await served?.removeTrees()
            switch error {
            case let error as ResultWriteError:
                throw failure("could not write \(error.description); the probes finished are kept in \(journalURL.path)", .runIncomplete)
            case let skip as BisectSkip:
                // Only an end reaches here: a commit between them is passed over (`Bisector`).
                let end = skip.state == 0 ? "\(good) (the good end)" : "\(bad) (the bad end)"
                throw failure("\(end) cannot be measured: \(skip.reason); bisect from commits that build and serve", .badInput)
            case is CancellationError:
                throw failure(
                    "interrupted; the finished probes are kept in \(journalURL.path): run the same command to resume", .runIncomplete)
            default: throw error
            }
        }
        await trap?.awaitExitIfFired()
        await served?.removeTrees()
        return outcome
    }

    /// The exit `outcome` earned: interrupted (3), the time budget spent or a difference left
    /// undecided (4, the culprits found named), or nothing to bisect (4); returns for 0.
    static func exit(for outcome: BisectOutcome, good: String, bad: String, budget: Double, journal journalURL: URL) throws {
        if outcome.interrupted {
            throw failure("interrupted; the finished probes are kept in \(journalURL.path): run the same command to resume", .runIncomplete)
        }
        if outcome.timingNotMeasured != nil || outcome.outOfTime?.isEmpty == false {
            throw failure(
                "the time budget (\(DurationText.format(budget))) ran out: "
                    + (outcome.findings.contains { !$0.culprits.isEmpty } ? "the culprits found are named above; " : "")
                    + "what was not decided is named; raise --time-budget or measure on a quieter machine", .noVerdict)
        }
        if outcome.findings.isEmpty {
            // What the ends' comparison saw beside it: "nothing worse" is not "alike" when the
            // settings differ, something got better, or the machine was busy.
            let notes = outcome.endpoints?.result.notesInParentheses ?? ""
            throw failure(
                outcome.undecidedAtEndpoints.isEmpty
                    ? "nothing the suites measure is worse at \(bad) than at \(good)\(notes): nothing to bisect"
                    : "the ends differ in nothing decided\(notes); more repetitions (--max-repeat) or a quieter machine may tell",
                .noVerdict)
        }
        if outcome.findings.contains(where: { !$0.undecided.isEmpty || $0.culprits.isEmpty }) || !outcome.undecidedAtEndpoints.isEmpty {
            throw failure(
                (outcome.findings.contains { !$0.culprits.isEmpty } ? "the culprits found are named above, but " : "")
                    + "a difference stayed undecided (named above); more repetitions (--max-repeat) or a quieter machine may decide it",
                .noVerdict)
        }
    }

    /// The engine build (in process, whose key names the CPU's instruction sets; a served
    /// runtime's is each commit's own, recorded with its runs) and this machine's CPU, in one
    /// line; each commit's threads and batch size are in its settings (`BisectRevision.settings`).
    package static func arithmetic(served: Bool) -> String {
        let machine = MachineInfo.current()
        return (served ? "served, each commit's own build" : "llama.cpp \(EngineBuild.currentName ?? "unknown build")")
            + "; CPU \(machine.cpuModel), \(machine.architecture)"
    }

    /// Both ends' runtimes loaded before anything is measured: an end that cannot be is refused
    /// at once, naming it (a commit between them that cannot is skipped by the search).
    private static func checkEnds(_ range: BisectRange, _ runtimes: any RevisionRuntimes, good: String, bad: String) async throws {
        for (index, name) in [(0, "\(good) (the good end)"), (range.states.count - 1, "\(bad) (the bad end)")] {
            do {
                _ = try await runtimes.runtime(for: index)
            } catch let skip as BisectSkip {
                throw failure("\(name) cannot be measured: \(skip.reason)", .badInput)
            }
        }
    }

    /// Each commit's runtime: in process, an engine per distinct configuration of the commits'
    /// own settings (`ConfiguredRuntimes`), or with --serve a server built and started from each
    /// commit in a bounded scratch folder.
    private func runtimes(_ range: BisectRange, root: URL, folder: URL) throws -> any RevisionRuntimes {
        guard let serveCommand else {
            EngineHold.releaseAll(after: [])  // what an earlier job of this process kept, before this one loads
            return ConfiguredRuntimes(range.configurations)
        }
        // Before any commit is built: each server's readiness is retried until --serve-ready-timeout,
        // and without libcurl every commit would be skipped as a server that never answered.
        do {
            try OpenAIConnection.checkTransport()
        } catch {
            throw failure(error.message, .runIncomplete)
        }
        let scratch: BisectScratch
        do {
            scratch = try BisectScratch(
                root: folder.appendingPathComponent(".chateval/bisect-trees"),
                range: "\(range.states.first?.shortId ?? good)..\(range.states.last?.shortId ?? bad)")
        } catch {
            throw failure(error.message, .badInput)
        }
        let served = ServedRevisions(
            commits: range.states.map { ($0.commit, $0.shortId) },
            export: { commit, folder in try GitRepository.discover(startingAt: root).export(commit, to: folder) },
            build: buildCommand, serve: serveCommand, scratch: scratch.folder, holding: scratch, buildTimeout: buildTimeout,
            readyTimeout: readyTimeout,
            connect: { baseURL in
                let connection = try await OpenAIConnection.open(OpenAIConfiguration(baseURL: baseURL, modelName: ""))
                return ServedRevisions.Endpoint(runtime: connection.makeRuntime(), close: { await connection.shutdown() })
            })
        return served
    }

    /// What makes two bisections the same question: the commits measured, their suites, the
    /// model, the arithmetic the replays compute with (`arithmetic`), the comparison settings and
    /// the bisection's own. A journal of single runs made by another engine build, thread count,
    /// batch size or CPU is not read as this bisection's: their ledgers would be compared "exactly".
    package static func fingerprint(
        _ range: BisectRange, arithmetic: String, settings: ComparisonSettings, maxRepetitions: Int, confidence: Double
    ) -> String {
        var text = range.revisions.map {
            "\($0.commit) \($0.settings) \($0.unmeasurable ?? "") "
                + $0.plan.suites.map { "\($0.path):\(FileDigest.sha256(of: Data($0.text.utf8)))" }.joined(separator: ",")
        }
        text.append("max \(maxRepetitions) confidence \(confidence)")
        text.append("arithmetic \(arithmetic)")
        text.append(String(decoding: (try? ResultWriter.makeEncoder(pretty: false).encode(settings)) ?? Data(), as: UTF8.self))
        return FileDigest.sha256(of: Data(text.joined(separator: "\n").utf8))
    }
}
