import ChatEvalCompare
import ChatEvalCore
import ChatEvalGit
import ChatEvalHistory
import ChatEvalRunner
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Where `compare` and `report` look their arguments up: the repository found from a given folder
/// or the current one upward (outside one, files and folders still work), the project file at its
/// root, and the reports folder given, else the project file's, else `reports`.
package struct RunSources {
    var locator: RunLocator
    /// The reports folder as given or found (messages name it so).
    package var folder: String
    package var projectFile: ProjectFile?
    /// What a commit changes of a run, relative to the repository root: the project file and the
    /// suite paths it names (else `suites`), as `history` reads them.
    var inputs: [String]

    package init(repo: String?, reportsFolder: String?, project: ProjectSelection) throws {
        let start = URL(fileURLWithPath: repo ?? FileManager.default.currentDirectoryPath)
        let repository: GitRepository?
        do {
            repository = try GitRepository.discover(startingAt: start)
        } catch let error as GitError where error.code == .notARepository && repo == nil {
            repository = nil
        } catch {
            throw failure("git: \(error)", .badInput)
        }
        let root = repository?.workdir.map { URL(fileURLWithPath: $0) } ?? start
        projectFile = try project.load(root: root)
        folder = reportsFolder ?? projectFile?.reports.map { $0.hasPrefix("/") ? $0 : root.appendingPathComponent($0).path } ?? "reports"
        locator = RunLocator(repository: repository, reportsFolder: URL(fileURLWithPath: folder))
        inputs = Self.inputPaths(project: project, suites: projectFile?.suites ?? ["suites"], root: root)
    }

    /// The project file's path and the suite paths (relative to its folder) relative to `root`;
    /// paths outside it left out.
    static func inputPaths(project: ProjectSelection, suites: [String], root: URL) -> [String] {
        let rootPath = root.standardizedFileURL.path
        func relative(_ path: String, from folder: URL) -> String? {
            let absolute = URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL.path
            guard absolute.hasPrefix(rootPath + "/") else { return nil }
            return String(absolute.dropFirst(rootPath.count + 1))
        }
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let file: String? = project.ignore ? nil : (project.path.map { relative($0, from: here) } ?? ProjectFile.fileName)
        return (file.map { [$0] } ?? []) + suites.compactMap { relative($0, from: project.folder(root: root)) }
    }

    /// `base` and `head` located and compared: for a revision the latest run, preferring one of a
    /// clean tree on the other side's machine and model; the project file's and the command
    /// line's thresholds; for one paired run the gate's audit for the head's machine where
    /// `calibrate` left one, for separately recorded runs their run-to-run spread.
    /// Returns the comparison and the runs of its sides, base first. A revision with no run
    /// recorded is exit 5, naming how to record one.
    package func compare(base: String, head: String, overrides: ComparisonOverrides) throws -> (Comparison, runs: [RunRecord]) {
        let headLocated = try locator.locate(head)
        let baseLocated = try locator.locate(base)
        guard let headRuns = headLocated.choose(matching: baseLocated.latest) else {
            throw Self.missing(headLocated, folder: folder, pair: (baseLocated, headLocated))
        }
        guard let baseRuns = baseLocated.choose(matching: headRuns.runs.last) else {
            throw Self.missing(baseLocated, folder: folder, pair: (baseLocated, headLocated))
        }

        // The two runs of ONE paired job were interleaved: no run-level offset between them, and
        // they are compared again as the job decided them (its look, settings, expectations).
        // Runs of different paired jobs are separately recorded runs like any others: they must
        // also pass their run-to-run spread. (The same runs on both sides share their machine
        // state too: no offset between them.)
        let paired = ComparedRuns.onePairedJob(base: baseRuns.runs, head: headRuns.runs)
        if paired, var again = RunComparator.comparePairedAgain(base: baseRuns.runs[0], head: headRuns.runs[0], commandLine: overrides) {
            again.base.sources = baseRuns.sources
            again.head.sources = headRuns.sources
            again.calibration = GateAuditStore.load(for: headRuns.runs[0], reports: folder)
            return (again, baseRuns.runs + headRuns.runs)
        }
        let sameRuns = Set(baseRuns.runs.map(\.runId)) == Set(headRuns.runs.map(\.runId))
        let settings = ComparisonSettings.default.applying(projectFile?.compare ?? ComparisonOverrides())
        var result = RunComparator.compare(
            base: baseRuns, head: headRuns, settings: settings, commandLine: overrides,
            look: .recorded(base: baseRuns.runs, head: headRuns.runs),
            runSpread: paired || sameRuns ? nil : runSpread(of: baseLocated, run: baseRuns.runs.last)?.atLeast(.stated) ?? .stated)
        result.attachLedger(LedgerComparator.compare(base: baseRuns.runs, head: headRuns.runs, gates: projectFile?.ledger ?? .default))
        // What the head's commits say they change on purpose: reported as accepted, not failed.
        let declared = DeclaredExpectations(
            repository: locator.repository, base: baseRuns.runs.last?.git?.commit, head: headRuns.runs.last?.git?.commit,
            inputs: inputs)
        result.accept(declared.expectations)
        declared.warnings.forEach(warn)
        // `calibrate` measures the paired design: its rates say nothing of separately recorded runs.
        if paired, let latest = headRuns.runs.max(by: { $0.startedAt < $1.startedAt }) {
            let (audit, problem) = GateAuditStore.read(for: latest, reports: folder)
            result.calibration = audit
            problem.map(warn)
        }
        return (result, baseRuns.runs + headRuns.runs)
    }

    /// The run-to-run spread of the base's recorded history: its commit's and up to 30
    /// first-parent ancestors' runs like `run` in the results index; nil when the base is not a
    /// revision or its history is too short (`RunToRunSpread.minimumHistory`).
    /// An index or repository that cannot be read is a warning: the stated spread then applies.
    package func runSpread(of base: RunLocator.Located, run: RunRecord?) -> RunToRunSpread? {
        guard case .commit(let id, _, _) = base, let run, let repository = locator.repository,
            let commits = try? repository.firstParentWalk(from: id, maxCount: 31).commits.map(\.id), commits.count >= 2
        else { return nil }
        do {
            let index = try RecordedRuns.updatedIndex(reports: locator.reportsFolder, repository: repository, rebuild: false)
            let runs = try index.runs(commits: commits, metrics: Set(RunToRunSpread.stated.spreads.keys))
            return RunSpreadHistory.estimate(commits: commits, runs: runs, like: run)
        } catch {
            warn("the run-to-run spread of the base's history was not estimated (\(error)); the stated spread is used")
            return nil
        }
    }

    /// The runs one argument names, to report on: a single run, or every run of the side-by-side
    /// group (or load sweep) it belongs to, in the group's order (then by concurrency). For a
    /// revision, the run `compare` would take and the rest of its group among the commit's runs;
    /// for a folder, its complete runs, which must be one run or one group (bad input otherwise).
    /// A revision with no run recorded is exit 5.
    package func runs(_ argument: String) throws -> [RunRecord] {
        let located = try locator.locate(argument)
        var records: [RunRecord]
        switch located {
        case .runs(let named):
            records = named.runs
            // One model's file of a side-by-side run: its group lies beside it.
            if records.count == 1, let source = named.sources.first {
                let folder = URL(fileURLWithPath: source).deletingLastPathComponent()
                records += ResultFolder.groupMates(of: records[0], in: folder).map(\.record)
            }
        case .commit(_, _, let candidates):
            guard let chosen = located.choose(matching: nil)?.runs.first else { throw Self.missing(located, folder: folder) }
            records = candidates.map(\.record).filter { Self.together(chosen, $0) }
        }
        var seen = Set<String>()
        records = records.filter { seen.insert($0.runId).inserted }
        guard let first = records.first else { throw failure("\(argument) holds no complete ChatEval result files", .badInput) }
        guard records.allSatisfy({ Self.together(first, $0) }) else {
            throw failure(
                "\(argument) holds \(records.count) runs, not one run or one side-by-side group; "
                    + "name one result file, or give two inputs to compare them", .badInput)
        }
        records.sort {
            ($0.group?.index ?? 0, $0.load?.concurrency ?? 0, $0.startedAt) < (
                $1.group?.index ?? 0, $1.load?.concurrency ?? 0, $1.startedAt
            )
        }
        if let group = first.group, first.load == nil, records.count < group.count {
            warn(
                "\(argument): \(records.count) of the \(group.count) runs of side-by-side group \(group.id) "
                    + "were found (complete ones only); reporting those")
        }
        return records
    }

    /// The newest complete run of the reports folder, with the rest of its side-by-side group;
    /// bad input when the folder holds none.
    package func latestRuns() throws -> [RunRecord] {
        guard let latest = ResultFolder.latestRun(in: locator.reportsFolder) else {
            throw failure(
                "\(folder) holds no complete ChatEval result files; run `chateval run` first, or name the folder with --reports", .badInput)
        }
        return try runs(latest.source)
    }

    /// True when `other` is `run` or was made with it: one side-by-side group, or one load sweep.
    private static func together(_ run: RunRecord, _ other: RunRecord) -> Bool {
        if run.runId == other.runId { return true }
        if let group = run.group { return other.group?.id == group.id }
        if let sweep = run.load?.sweepId { return other.group == nil && other.load?.sweepId == sweep }
        return false
    }

    /// Exit 5 with how to produce the missing run. For a comparison (`pair`: base, head), the
    /// one job measuring both sides runs at the head with the base as `--baseline`, whichever side
    /// lacks a run (a head without one is never offered as its own baseline); alone, `located` is
    /// the baseline of the checkout.
    package static func missing(
        _ located: RunLocator.Located, folder: String, pair: (base: RunLocator.Located, head: RunLocator.Located)? = nil
    ) -> CommandFailure {
        guard case .commit(let commit, let label, _) = located else { return failure("no runs found", .baselineMissing) }
        var paired: String? = "chateval run --baseline \(commit.prefix(12))"
        if let pair {
            let checkout = pair.head.commit.map { head in "git checkout \(head.prefix(12)) && " } ?? ""
            paired = pair.base.commit.map { base in checkout + "chateval run --baseline \(base.prefix(12))" }
        }
        let record = "Record one with `git checkout \(commit.prefix(12)) && chateval run --git-note`"
        let fetch = "fetch CI's with `git fetch origin 'refs/notes/*:refs/notes/*'`"
        return failure(
            "no complete run recorded for \(label) in \(folder)/ or in the git notes \(GitRepository.chatEvalNotesRef). "
                + (paired.map { "\(record), \(fetch), or measure both sides in one job with `\($0)`" } ?? "\(record) or \(fetch)"),
            .baselineMissing)
    }
}
