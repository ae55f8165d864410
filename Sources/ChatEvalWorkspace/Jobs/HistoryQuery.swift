import ChatEvalCore
import ChatEvalGit
import ChatEvalHistory
import ChatEvalIndex
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// `chateval history`: how metrics moved over the commits, from the runs recorded for them.
package struct HistoryQuery: Sendable {
    package var since: String?
    package var maxCount: Int
    /// Suite names to keep (empty: every suite).
    package var suites: [String]
    package var metrics: [HistoryMetric]
    package var repo: String?
    package var reportsFolder: String?
    package var project: ProjectSelection
    package var rebuildIndex: Bool

    package init(
        since: String?, maxCount: Int, suites: [String], metrics: [HistoryMetric], repo: String?, reportsFolder: String?,
        project: ProjectSelection, rebuildIndex: Bool
    ) {
        self.since = since
        self.maxCount = maxCount
        self.suites = suites
        self.metrics = metrics
        self.repo = repo
        self.reportsFolder = reportsFolder
        self.project = project
        self.rebuildIndex = rebuildIndex
    }

    /// The history of `metrics` over the first-parent commits, read through the results index
    /// (brought up to date first); problems with single sources are warnings.
    package func build() throws -> History {
        let (repository, root) = try RecordedRuns.openRepository(repo)
        let walk: FirstParentWalk
        do {
            walk = try repository.firstParentWalk(since: since, maxCount: maxCount)
        } catch let error as GitError where error.code == .unbornHead {
            throw failure("the repository at \(root.path) has no commits yet: there is no history to show", .badInput)
        } catch {
            throw failure((since.map { "--since \($0): " } ?? "") + "\(error)", .badInput)
        }
        let commits = walk.commits
        if walk.endsAtShallowCut {
            warn(
                "the history is cut: this shallow clone holds \(commits.count) commit(s) of HEAD's first-parent line, "
                    + (since.map { "not reaching --since \($0)" } ?? "fewer than --max-count \(maxCount)")
                    + "; those were read. Fetch the rest with `git fetch --unshallow` "
                    + "(GitHub Actions: actions/checkout with fetch-depth: 0)"
            )
        }
        let folder = try RecordedRuns.reportsFolder(reportsFolder, project: project, root: root)
        var index = try RecordedRuns.updatedIndex(reports: folder, repository: repository, rebuild: rebuildIndex)
        let needed = Set(metrics.compactMap { if case .metric(let metric) = $0 { metric } else { nil } })
        let runs: [RunDigest]
        do {
            runs = try index.runs(commits: commits.map(\.id), metrics: needed)
        } catch {
            // Damage only a query meets: rebuild once and ask again.
            warn(
                "the results index was damaged (\(error.pointOfFailure): \(error.message)); rebuilt it from the result files and git notes")
            index = try RecordedRuns.updatedIndex(reports: folder, repository: repository, rebuild: true)
            do {
                runs = try index.runs(commits: commits.map(\.id), metrics: needed)
            } catch {
                throw failure(error.description, .runIncomplete)
            }
        }
        var history = HistoryBuilder.build(commits: commits, runs: runs, metrics: metrics, suites: suites.isEmpty ? nil : Set(suites))
        history.lookUpSuspects(in: repository, inputs: try inputPaths(root: root)).forEach(warn)
        if !suites.isEmpty {
            let found = Set(history.series.map(\.key.suite))
            for suite in suites where !found.contains(suite) {
                warn("--suite \(suite): no run of these commits has a suite of that name")
            }
        }
        return history
    }

    /// What a commit can change of a run: the project file and the suite folders it names (else
    /// `suites`), relative to the repository root.
    private func inputPaths(root: URL) throws -> [String] {
        let projectFile = try project.load(root: root)
        let suitePaths = projectFile?.suites ?? ["suites"]
        return [ProjectFile.fileName] + suitePaths.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }.filter { !$0.hasPrefix("/") }
    }
}
