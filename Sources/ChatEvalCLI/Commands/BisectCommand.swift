import ArgumentParser
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

struct BisectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the commit where each difference between a good and a bad commit appeared, and how sure.",
        discussion: """
            Walks the first-parent commits from GOOD to BAD through libgit2 (the working tree is not touched) and replays each \
            commit's own suites and project file on one model, as `run --baseline` replays a revision. Commits that change \
            no input (the project file or a suite) are skipped: they replay exactly what the commit before them replays.

            GOOD and BAD are compared first, interleaved in rounds; every difference is then chased on its own: exact \
            ones (a turn's work ledger, a check failing on exact answers) by one greedy replay of each probed commit, pass \
            rates by Fisher's exact test and metrics by the paired test in rounds, each probe against half the change the \
            ends showed. A culprit is confirmed against the commit before it, and the ranges beside it are checked for a \
            second step. The error rate (1 − --confidence) is shared by every probe the bisection can take; a probe that \
            cannot decide within --max-repeat is named, never guessed.

            Every probe's runs are recorded in the reports folder and the probes in <reports>/.chateval/bisect-GOOD-BAD.json: \
            run the same command again after Ctrl-C and finished probes are read back, not measured again (--fresh starts over).

            Examples:
              chateval bisect v1.2 HEAD
                  every suite of the project file
              chateval bisect HEAD~16 HEAD suites/smoke.yaml --format markdown
              chateval bisect v1.2 HEAD --build 'cmake -B build && cmake --build build' \\
                  --serve 'exec build/bin/llama-server -m "$MODEL" --port "$PORT"'
                  the runtime built and served from each commit; a failed build is skipped

            Exit codes: 0 every difference has its culprit, 2 bad input, 3 interrupted (run it again to resume) or a \
            report could not be written, 4 the ends do not differ or a difference stayed undecided.
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

    /// --format / --output: terminal, json (the bisection's record) or markdown.
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (2...10_000).contains(maxRepetitions) else {
            throw ValidationError("--max-repeat must be 2 to 10000 (got \(maxRepetitions))")
        }
        guard confidence > 0.5, confidence < 1 else {
            throw ValidationError("--confidence must be above 0.5 and below 1 (got \(confidence))")
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
        let workspace = try Workspace.open(recording: recording, project: project)
        guard let repository = workspace.repository else {
            throw failure("bisect needs a git repository; run inside one or pass --repo", .badInput)
        }
        let projectFolder = project.path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() } ?? workspace.root
        let picked = selection.selection(suites)
        let head = try configuration(workspace.project, projectFolder: projectFolder)
        let tree = CommitTree(repository: repository, commit: bad, label: bad, root: workspace.root)
        let projectPath =
            project.ignore ? nil : tree.relativePath(project.path ?? workspace.root.appendingPathComponent(ProjectFile.fileName).path)
        // With --serve the runtime is built from the repository: any file may change what is measured.
        let inputs = serveCommand != nil ? nil : (projectPath.map { [$0] } ?? []) + head.suitePaths.compactMap { tree.relativePath($0) }
        let range = try BisectRange.read(
            good: good, bad: bad, repository: repository, root: workspace.root, inputs: inputs, projectPath: projectPath,
            selection: picked, head: head, configure: { try configuration($0, projectFolder: projectFolder) })
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
            range, model: sha256, settings: head.comparison, maxRepetitions: maxRepetitions, confidence: confidence)
        let journal = fresh ? BisectJournal(fingerprint: fingerprint) : BisectJournal.open(journalURL, fingerprint: fingerprint)
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
        let task = Task { try await bisector.run(prober) { info.info($0) } }
        let trap = InterruptTrap(stop: stop, expire: { task.cancel() }, cancel: { task.cancel() })
        defer { withExtendedLifetime(trap) {} }
        var outcome: BisectOutcome
        do {
            outcome = try await task.value
            outcome.bad = range.bad
            await (runtimes as? ServedRevisions)?.releaseAll()
        } catch let error as ResultWriteError {
            await (runtimes as? ServedRevisions)?.releaseAll()
            throw failure("could not write \(error.description); the probes finished are kept in \(journalURL.path)", .runIncomplete)
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

    /// Each commit's runtime: one in-process engine for all (the working tree's model), or with
    /// --serve a server built and started from each commit; and the model's digest the records
    /// carry (none for a served runtime).
    private func runtimes(_ range: BisectRange, head: RunConfiguration, root: URL, folder: URL) throws -> (
        any RevisionRuntimes, String?
    ) {
        guard let serveCommand else {
            let (engine, sha256) = try Workspace.loadRuntime(head, head.primary)
            return (SharedRuntime(engine), sha256)
        }
        let served = ServedRevisions(
            commits: range.states.map { ($0.commit, $0.shortId) },
            export: { commit, folder in try GitRepository.discover(startingAt: root).export(commit, to: folder) },
            build: buildCommand, serve: serveCommand, scratch: folder.appendingPathComponent(".chateval/bisect-trees"),
            connect: { baseURL in
                let connection = try await OpenAIConnection.open(OpenAIConfiguration(baseURL: baseURL, modelName: ""))
                return ServedRevisions.Endpoint(runtime: connection.makeRuntime(), close: { await connection.shutdown() })
            })
        return (served, nil)
    }

    /// A commit's run configuration: its project file (nil for none) with the command line applied.
    private func configuration(_ project: ProjectFile?, projectFolder: URL) throws -> RunConfiguration {
        try RunConfiguration.resolveForCommand(
            runtime.overrides(suitePaths: suites.given, reportsFolder: recording.reportsFolder), project: project,
            projectFolder: projectFolder)
    }

    /// What makes two bisections the same question: the commits measured, their suites, the
    /// model, the comparison settings and the bisection's own.
    static func fingerprint(
        _ range: BisectRange, model: String?, settings: ComparisonSettings, maxRepetitions: Int, confidence: Double
    ) -> String {
        var text = range.revisions.map {
            "\($0.commit) " + $0.plan.suites.map { "\($0.path):\(FileDigest.sha256(of: Data($0.text.utf8)))" }.joined(separator: ",")
        }
        text.append("model \(model ?? "-") max \(maxRepetitions) confidence \(confidence)")
        text.append(String(decoding: (try? ResultWriter.makeEncoder(pretty: false).encode(settings)) ?? Data(), as: UTF8.self))
        return FileDigest.sha256(of: Data(text.joined(separator: "\n").utf8))
    }
}
