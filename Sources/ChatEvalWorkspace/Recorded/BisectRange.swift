import ChatEvalCompare
import ChatEvalCore
import ChatEvalGit
import ChatEvalRunner
import ChatEvalSuites
import Foundation

/// The commits a bisection measures, read through libgit2 (the working tree untouched): the
/// first-parent line from the good commit to the bad one, each commit that changes an input (the
/// project file or a suite) a state with its own suites, the others folded into the state
/// before them and named as skipped.
package struct BisectRange {
    package var states: [BisectState]
    package var skipped: [SkippedCommit]
    package var revisions: [BisectRevision]
    /// The bad commit itself (the last state when it changed an input, else folded into it).
    package var bad: BisectState

    /// - `head`: the working tree's configuration, whose model and engine settings every commit is replayed with.
    /// - `configure`: a commit's run configuration from its project file (nil when it has none),
    ///   with the command line applied.
    /// - `inputs`: the paths, relative to the repository root, whose change makes a commit worth
    ///   measuring; nil for every file (the runtime itself is built from the repository).
    package static func read(
        good: String, bad: String, repository: GitRepository, root: URL, inputs: [String]?, projectPath: String?,
        selection: SuiteSelection, head: RunConfiguration, configure: (ProjectFile?) throws -> RunConfiguration
    ) throws -> BisectRange {
        let (goodId, badId) = (try commit(good, repository), try commit(bad, repository))
        guard goodId != badId else { throw failure("\(good) and \(bad) are the same commit: there is nothing between them", .badInput) }
        let walk: FirstParentWalk
        do {
            walk = try repository.firstParentWalk(from: badId, since: goodId)
        } catch {
            throw failure(
                "\(good) is not on the first-parent line of \(bad) (\(error)); bisect walks from an older commit to a newer one", .badInput)
        }
        if walk.endsAtShallowCut {
            throw failure("this shallow clone does not reach \(good) from \(bad); fetch the rest with `git fetch --unshallow`", .badInput)
        }
        let newest = walk.commits.first
        var range = BisectRange(
            states: [], skipped: [], revisions: [],
            bad: BisectState(commit: badId, shortId: newest?.shortId ?? bad, subject: newest?.subject ?? ""))
        for summary in walk.commits.reversed() {
            let changed = try inputs.map { try repository.changedPaths($0, in: summary.id) } ?? repository.changedFiles(in: summary.id)
            if !range.states.isEmpty, changed.isEmpty {
                let files = (try? repository.changedFiles(in: summary.id)) ?? []
                let skipped = SkippedCommit(
                    shortId: summary.shortId, subject: summary.subject,
                    reason: "changes no input"
                        + (files.isEmpty ? "" : " (only \(files.prefix(3).joined(separator: ", "))\(files.count > 3 ? ", …" : ""))"))
                range.skipped.append(skipped)
                range.states[range.states.count - 1].folded.append(skipped)
                continue
            }
            range.states.append(BisectState(commit: summary.id, shortId: summary.shortId, subject: summary.subject))
        }
        for state in range.states {
            range.revisions.append(
                try revision(
                    state, repository: repository, root: root, projectPath: projectPath, selection: selection, head: head,
                    served: inputs == nil, configure: configure))
        }
        return range
    }

    private static func commit(_ revision: String, _ repository: GitRepository) throws -> String {
        do { return try repository.resolveCommit(revision) } catch { throw failure("\(revision): \(error)", .badInput) }
    }

    /// The commit's suites and settings, from its own project file and suite files.
    private static func revision(
        _ state: BisectState, repository: GitRepository, root: URL, projectPath: String?, selection: SuiteSelection,
        head: RunConfiguration, served: Bool, configure: (ProjectFile?) throws -> RunConfiguration
    ) throws -> BisectRevision {
        let tree = CommitTree(repository: repository, commit: state.commit, label: state.shortId, root: root)
        let project = try projectPath.flatMap { try tree.projectFile(at: $0) }
        let configuration = try configure(project)
        // A served runtime is each commit's own; the in-process one is the working tree's for all.
        guard served || configuration.variants.count == 1,
            served || configuration.runtimeConfiguration(configuration.primary) == head.runtimeConfiguration(head.primary)
        else {
            throw failure(
                "\(state.shortId)'s project file runs another model or engine setting than the bisection's "
                    + "(\(head.primary.modelPath)): bisect replays every commit on one model; name it with --model", .badInput)
        }
        let suites = try SuiteFiles.select(try tree.suites(configuration.suitePaths), selection)
        let snapshot = try? repository.snapshot(ofCommit: state.commit)
        return BisectRevision(
            commit: state.commit, plan: RunPlan(suites: suites, settings: configuration.settings(selection: selection)), git: snapshot,
            project: Workspace.record(of: project))
    }
}
