import ArgumentParser
import ChatEvalCompare
import ChatEvalCore
import ChatEvalGit
import ChatEvalHistory
import ChatEvalRunner
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Finds the runs a `compare` argument names: a result file, a folder of result files, or a git
/// revision — resolved to a commit, then to the runs recorded for it in the reports folder and
/// in git notes (`refs/notes/chateval`).
struct RunLocator {
    var repository: GitRepository?
    var reportsFolder: URL

    /// What an argument named.
    enum Located {
        /// Runs named directly (a file, or a folder: all its complete runs).
        case runs(ComparedRuns)
        /// A revision: its commit, and every complete run recorded for it, newest first.
        case commit(id: String, label: String, candidates: [LocatedRun])
    }

    func locate(_ argument: String) throws -> Located {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) {
            return .runs(try isDirectory.boolValue ? folder(argument) : file(argument))
        }
        guard let repository else {
            throw failure(
                "'\(argument)' is neither a result file nor a folder, and there is no git repository to look it up as a revision", .badInput
            )
        }
        let commit: String
        do {
            commit = try repository.resolveCommit(argument)
        } catch let error as GitError where error.code == .notFound || error.code == .unbornHead {
            let near = suggestions(for: argument, among: (try? repository.referenceNames()) ?? [], limit: 1).first
            throw failure(
                "'\(argument)' is not a result file, a folder of results, "
                    + "or a revision of \(repository.workdir ?? repository.gitDirectory) (\(error.message))"
                    + (near.map { "; did you mean \($0)?" } ?? nearPathHint(argument)),
                .badInput)
        }
        let label = (try? repository.snapshot(ofCommit: commit).shortCommit) ?? String(commit.prefix(7))
        var candidates = ResultFolder.runs(for: commit, in: reportsFolder)
        let note: String?
        do {
            note = try repository.note(for: commit)
        } catch {
            throw failure("git: \(error)", .badInput)
        }
        if let note {
            let (records, unreadable) = RunNote.records(in: note)
            for problem in unreadable.prefix(3) {
                warn("the git note on \(label) (\(GitRepository.chatEvalNotesRef)), \(problem); skipped")
            }
            if unreadable.count > 3 { warn("the git note on \(label): \(unreadable.count - 3) more line(s) like these skipped") }
            let known = Set(candidates.map(\.record.runId))
            candidates += records.filter { $0.status == .complete && !known.contains($0.runId) }
                .map { LocatedRun(record: $0, source: "notes:\(label)") }
        }
        candidates.sort { $0.record.startedAt > $1.record.startedAt }
        return .commit(id: commit, label: "\(label) (\(argument))", candidates: candidates)
    }

    private func file(_ path: String) throws -> ComparedRuns {
        do {
            let record = try ResultFolder.read(URL(fileURLWithPath: path))
            if record.status != .complete { warn("\(path) is \(record.status.rawValue): using what it measured") }
            return ComparedRuns(runs: [record], sources: [path])
        } catch {
            throw failure(error.description, .badInput)
        }
    }

    /// Every complete run in the folder; they must be of one commit.
    private func folder(_ path: String) throws -> ComparedRuns {
        var runs: [LocatedRun] = []
        for url in ResultFolder.files(in: URL(fileURLWithPath: path)) {
            do {
                let record = try ResultFolder.read(url)
                if record.status == .complete { runs.append(LocatedRun(record: record, source: url.path)) }
            } catch {
                warn("\(error.description); skipped")
            }
        }
        guard !runs.isEmpty else { throw failure("\(path) holds no complete ChatEval result files", .badInput) }
        let commits = Set(runs.map { $0.record.git?.commit ?? "none" })
        guard commits.count == 1 else {
            let listed = commits.sorted().map { String($0.prefix(7)) }.joined(separator: ", ")
            throw failure(
                "\(path) holds runs of \(commits.count) commits (\(listed)); name a file, or a revision to pick one commit's runs",
                .badInput)
        }
        return ComparedRuns(runs: runs.map(\.record), sources: runs.map(\.source))
    }
}

extension RunLocator.Located {
    /// The runs to compare: named runs as they are; for a revision the latest run, preferring one
    /// of a clean working tree measured on the machine and model of `other` (the other side's
    /// latest run). nil when a revision has no recorded run.
    func choose(matching other: RunRecord?) -> ComparedRuns? {
        switch self {
        case .runs(let runs): return runs
        case .commit(_, _, let candidates):
            func matches(_ run: LocatedRun) -> Bool {
                guard let other else { return true }
                return run.record.machine.cpuModel == other.machine.cpuModel && run.record.modelSha256 == other.modelSha256
            }
            let ranked =
                candidates.filter { matches($0) && $0.record.git?.isDirty != true }
                + candidates.filter { matches($0) } + candidates
            return ranked.first.map { ComparedRuns(runs: [$0.record], sources: [$0.source]) }
        }
    }

    /// The commit a revision resolved to; nil for runs named by file or folder.
    var commit: String? {
        guard case .commit(let id, _, _) = self else { return nil }
        return id
    }

    /// The latest run this names, to match the other side against.
    var latest: RunRecord? {
        switch self {
        case .runs(let runs): runs.runs.max { $0.startedAt < $1.startedAt }
        case .commit(_, _, let candidates): candidates.first?.record
        }
    }
}

/// Where `compare` and `report` look their arguments up, found as `compare` always has: the
/// repository from `--repo` or the current folder upward (outside one, files and folders still
/// work), the project file at its root, and the reports folder from `--reports`, else the project
/// file's, else `reports`.
struct RunSources {
    var locator: RunLocator
    /// The reports folder as given or found (messages name it so).
    var folder: String
    var projectFile: ProjectFile?

    init(repo: String?, reportsFolder: String?, project: ProjectOptions) throws {
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
    }

    /// `base` and `head` located and compared: for a revision the latest run, preferring one of a
    /// clean tree on the other side's machine and model; the project file's and the command
    /// line's thresholds; for one paired run the gate's audit for the head's machine where
    /// `calibrate` left one, for separately recorded runs their run-to-run spread.
    /// Returns the comparison and the runs of its sides, base first. A revision with no run
    /// recorded is exit 5, naming how to record one.
    func compare(base: String, head: String, overrides: ComparisonOverrides) throws -> (Comparison, runs: [RunRecord]) {
        let headLocated = try locator.locate(head)
        let baseLocated = try locator.locate(base)
        guard let headRuns = headLocated.choose(matching: baseLocated.latest) else {
            throw Self.missing(headLocated, folder: folder, pair: (baseLocated, headLocated))
        }
        guard let baseRuns = baseLocated.choose(matching: headRuns.runs.last) else {
            throw Self.missing(baseLocated, folder: folder, pair: (baseLocated, headLocated))
        }

        let settings = ComparisonSettings.default.applying(projectFile?.compare ?? ComparisonOverrides())
        // Runs of one paired run were interleaved: no run-level offset between them. Separately
        // recorded runs must also pass their run-to-run spread.
        // (The same runs on both sides share their machine state too: no offset between them.)
        let paired =
            baseRuns.runs.count == 1 && headRuns.runs.count == 1 && headRuns.runs[0].pairedRunId == baseRuns.runs[0].runId
            && baseRuns.runs[0].pairedRunId == headRuns.runs[0].runId
            || Set(baseRuns.runs.map(\.runId)) == Set(headRuns.runs.map(\.runId))
        var result = RunComparator.compare(
            base: baseRuns, head: headRuns, settings: settings, commandLine: overrides,
            look: .recorded(base: baseRuns.runs, head: headRuns.runs),
            runSpread: paired ? nil : runSpread(of: baseLocated, run: baseRuns.runs.last)?.atLeast(.stated) ?? .stated)
        result.ledger = LedgerComparator.compare(base: baseRuns.runs, head: headRuns.runs, gates: projectFile?.ledger ?? .default)
        // What the head's commits say they change on purpose: reported as accepted, not failed.
        let declared = DeclaredExpectations(
            repository: locator.repository, base: baseRuns.runs.last?.git?.commit, head: headRuns.runs.last?.git?.commit)
        result.accept(declared.expectations)
        declared.warnings.forEach(warn)
        // `calibrate` measures the paired design: its rates say nothing of separately recorded runs.
        if paired, let latest = headRuns.runs.max(by: { $0.startedAt < $1.startedAt }) {
            result.calibration = GateAuditStore.load(for: latest, reports: folder)
        }
        return (result, baseRuns.runs + headRuns.runs)
    }

    /// The run-to-run spread of the base's recorded history: its commit's and up to 30
    /// first-parent ancestors' runs like `run` in the results index; nil when the base is not a
    /// revision or its history is too short (`RunToRunSpread.minimumHistory`).
    func runSpread(of base: RunLocator.Located, run: RunRecord?) -> RunToRunSpread? {
        guard case .commit(let id, _, _) = base, let run, let repository = locator.repository,
            let commits = try? repository.firstParentWalk(from: id, maxCount: 31).commits.map(\.id), commits.count >= 2,
            let index = try? RecordedRuns.updatedIndex(reports: locator.reportsFolder, repository: repository, rebuild: false),
            let runs = try? index.runs(commits: commits, metrics: Set(RunToRunSpread.stated.spreads.keys))
        else { return nil }
        return RunSpreadHistory.estimate(commits: commits, runs: runs, like: run)
    }

    /// The runs one argument names, to report on: a single run, or every run of the side-by-side
    /// group (or load sweep) it belongs to, in the group's order (then by concurrency). For a
    /// revision, the run `compare` would take and the rest of its group among the commit's runs;
    /// for a folder, its complete runs, which must be one run or one group (bad input otherwise).
    /// A revision with no run recorded is exit 5.
    func runs(_ argument: String) throws -> [RunRecord] {
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
    func latestRuns() throws -> [RunRecord] {
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
    static func missing(
        _ located: RunLocator.Located, folder: String, pair: (base: RunLocator.Located, head: RunLocator.Located)? = nil
    ) -> ExitCode {
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
