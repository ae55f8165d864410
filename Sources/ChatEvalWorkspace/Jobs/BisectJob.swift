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
    package var output: ReportOutput

    package init(
        good: String, bad: String, settings: WorkspaceRequest,
        selection: SuiteSelection, maxRepetitions: Int, confidence: Double, fresh: Bool, buildCommand: String?, serveCommand: String?,
        output: ReportOutput
    ) {
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
            selection: selection, head: head, configure: { try settings.configuration($0, root: workspace.root) })
        output.info(
            "bisect    \(range.states.first?.shortId ?? good)..\(range.states.last?.shortId ?? bad): "
                + "\(Format.count(range.states.count - 1, "commit")) to measure, \(range.skipped.count) skipped (no input changed)")

        guard range.states.count > 1 else {
            throw failure(
                "no commit after \(good) up to \(bad) changes an input (the project file or a suite): every one replays the same, "
                    + "so what changed lies outside the repository (the engine build, the model file, the machine)", .noVerdict)
        }
        let folder = URL(fileURLWithPath: head.reportsFolder)
        let (runtimes, sha256) = try runtimes(range, head: head, root: workspace.root, folder: folder)
        let journalURL = folder.appendingPathComponent(
            ".chateval/bisect-\(range.states[0].shortId)-\(range.states.last?.shortId ?? "").json")
        let fingerprint = Self.fingerprint(
            range, model: sha256, arithmetic: Self.arithmetic(runtimes), settings: head.comparison, maxRepetitions: maxRepetitions,
            confidence: confidence)
        let (journal, refused) =
            fresh ? (BisectJournal(fingerprint: fingerprint), nil) : BisectJournal.read(journalURL, fingerprint: fingerprint)
        if let refused { warn(refused) }
        if !journal.probes.isEmpty { output.info("resuming  \(Format.count(journal.probes.count, "probe")) kept in \(journalURL.path)") }
        try? FileManager.default.createDirectory(at: journalURL.deletingLastPathComponent(), withIntermediateDirectories: true)

        let stop = StopRequest()
        let prober = RevisionProber(
            revisions: range.revisions, runtimes: runtimes, gate: head.comparison, design: .rounds(maximum: maxRepetitions),
            timeBudget: head.timeBudget,
            modelSha256: sha256, machineLoad: MachineLoad.sample(),
            folder: folder, journal: journal, journalURL: journalURL, stop: stop)
        let bisector = Bisector(states: range.states, skipped: range.skipped, errorRate: 1 - confidence)
        let info = output
        var outcome: BisectOutcome
        do {
            outcome = try await InterruptTrap.run(stop: stop) { try await bisector.run(prober) { info.info($0) } }.value
            outcome.bad = range.bad
            await (runtimes as? ServedRevisions)?.removeTrees()
        } catch let error as ResultWriteError {
            await (runtimes as? ServedRevisions)?.removeTrees()
            throw failure("could not write \(error.description); the probes finished are kept in \(journalURL.path)", .runIncomplete)
        } catch let skip as BisectSkip {
            // Only an end reaches here: a commit between them is passed over (`Bisector`).
            await (runtimes as? ServedRevisions)?.removeTrees()
            let end = skip.state == 0 ? "\(good) (the good end)" : "\(bad) (the bad end)"
            throw failure("\(end) cannot be measured: \(skip.reason); bisect from commits that build and serve", .badInput)
        }
        try output.write(.bisect(outcome)) { BisectReport.render(outcome) }
        if outcome.interrupted {
            throw failure("interrupted; the finished probes are kept in \(journalURL.path): run the same command to resume", .runIncomplete)
        }
        if outcome.findings.isEmpty {
            throw failure(
                outcome.undecidedAtEndpoints.isEmpty
                    ? "\(bad) and \(good) do not differ in anything the suites measure: nothing to bisect"
                    : "the ends differ in nothing decided; more repetitions (--max-repeat) may tell", .noVerdict)
        }
        if outcome.findings.contains(where: { !$0.undecided.isEmpty || $0.culprits.isEmpty }) {
            throw failure("a difference stayed undecided (named above); more repetitions (--max-repeat) may decide it", .noVerdict)
        }
    }

    /// The engine, its build, threads and batch size (the in-process engine's; a served runtime's
    /// are each commit's own, recorded with its runs) and this machine's CPU, in one line.
    package static func arithmetic(_ runtimes: any RevisionRuntimes) -> String {
        let machine = MachineInfo.current()
        let engine =
            (runtimes as? SharedRuntime).map {
                let identity = $0.runtime.identity
                return "\(identity.engine) \(identity.build) threads \(identity.threads) batch \(identity.batchSize)"
            } ?? "served, each commit's own"
        return "\(engine); CPU \(machine.cpuModel), \(machine.architecture)"
    }

    /// Each commit's runtime: one in-process engine for all (the working tree's model), or with
    /// --serve a server built and started from each commit; and the model's digest the records
    /// carry (none for a served runtime).
    private func runtimes(_ range: BisectRange, head: RunConfiguration, root: URL, folder: URL) throws -> (
        any RevisionRuntimes, String?
    ) {
        guard let serveCommand else {
            EngineHold.releaseAll(after: [])  // what an earlier job of this process kept, before this one loads
            let (engine, sha256) = try Workspace.loadRuntime(head, head.primary)
            return (SharedRuntime(engine), sha256)
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
            build: buildCommand, serve: serveCommand, scratch: scratch.folder, holding: scratch,
            connect: { baseURL in
                let connection = try await OpenAIConnection.open(OpenAIConfiguration(baseURL: baseURL, modelName: ""))
                return ServedRevisions.Endpoint(runtime: connection.makeRuntime(), close: { await connection.shutdown() })
            })
        return (served, nil)
    }

    /// What makes two bisections the same question: the commits measured, their suites, the
    /// model, the arithmetic the replays compute with (`arithmetic`), the comparison settings and
    /// the bisection's own. A journal of single runs made by another engine build, thread count,
    /// batch size or CPU is not read as this bisection's: their ledgers would be compared "exactly".
    package static func fingerprint(
        _ range: BisectRange, model: String?, arithmetic: String, settings: ComparisonSettings, maxRepetitions: Int,
        confidence: Double
    ) -> String {
        var text = range.revisions.map {
            "\($0.commit) " + $0.plan.suites.map { "\($0.path):\(FileDigest.sha256(of: Data($0.text.utf8)))" }.joined(separator: ",")
        }
        text.append("model \(model ?? "-") max \(maxRepetitions) confidence \(confidence)")
        text.append("arithmetic \(arithmetic)")
        text.append(String(decoding: (try? ResultWriter.makeEncoder(pretty: false).encode(settings)) ?? Data(), as: UTF8.self))
        return FileDigest.sha256(of: Data(text.joined(separator: "\n").utf8))
    }
}
