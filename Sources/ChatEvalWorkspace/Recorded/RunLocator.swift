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
package struct RunLocator {
    package var repository: GitRepository?
    package var reportsFolder: URL

    /// What an argument named.
    package enum Located {
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
    package func choose(matching other: RunRecord?) -> ComparedRuns? {
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
    package var commit: String? {
        guard case .commit(let id, _, _) = self else { return nil }
        return id
    }

    /// The latest run this names, to match the other side against.
    package var latest: RunRecord? {
        switch self {
        case .runs(let runs): runs.runs.max { $0.startedAt < $1.startedAt }
        case .commit(_, _, let candidates): candidates.first?.record
        }
    }
}
