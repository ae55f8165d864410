import ArgumentParser
import ChatEvalCore
import ChatEvalGit
import ChatEvalHistory
import ChatEvalIndex
import ChatEvalReport
import ChatEvalStore
import ChatEvalSuites
import Foundation

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "How a metric moved over the commits: per-commit medians and spreads, and where it stepped.",
        discussion: """
            Walks first-parent commits from HEAD and reads the runs recorded for each in the reports folder and in git notes \
            (refs/notes/chateval; git fetch origin 'refs/notes/*:refs/notes/*' brings CI's), through a results index kept in \
            <reports>/.chateval/ (rebuilt from them at any time with --rebuild-index or `chateval index --rebuild`).

            A series is one suite, machine class, model (sha256), engine and cache mode: runs of different ones are never mixed. \
            Runs of a dirty working tree or that did not finish are left out. Steps are found with E-divisive (a permutation test \
            at α = 0.01) and confirmed by a Mann-Whitney test between the segments; each is named by its suspect: the first \
            commit after the last one measured at the old level.

            Examples:
              chateval history
                  TTFT and pass rate over the last 100 commits
              chateval history --metric decode-tps --suite memory --since v1.0
              chateval history --output history.html
                  the trend as a chart too

            Exit codes: 0 shown (steps are reported, not failed on; the JUnit report fails a series whose latest step made it worse), \
            2 bad input (an unknown revision or metric, not a repository), 3 a report file (--output) could not be written.
            """)

    @Option(help: ArgumentHelp("Stop at this commit (included); it must be on HEAD's first-parent line.", valueName: "rev"))
    var since: String?

    @Option(name: .customLong("max-count"), help: ArgumentHelp("At most this many commits.", valueName: "n"))
    var maxCount: Int = 100

    @Option(
        name: .customLong("suite"), help: ArgumentHelp("Only this suite (by name). Repeatable; default: every suite.", valueName: "name"))
    var suites: [String] = []

    @Option(
        name: .customLong("metric"),
        help: ArgumentHelp(
            "Metric to follow: \(HistoryMetric.names.joined(separator: ", ")). Repeatable; default: ttft and pass-rate.", valueName: "name")
    )
    var metrics: [String] = []

    @OptionGroup var recorded: RecordedRunOptions

    @Flag(name: .customLong("rebuild-index"), help: "Rebuild the results index from the result files and git notes first.")
    var rebuildIndex = false

    @OptionGroup var project: ProjectOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard maxCount >= 1 else { throw ValidationError("--max-count must be at least 1 (got \(maxCount))") }
        _ = try chosenMetrics()
    }

    func chosenMetrics() throws -> [HistoryMetric] {
        guard !metrics.isEmpty else { return HistoryMetric.defaults }
        return try metrics.map { name in
            guard let metric = HistoryMetric(name: name) else {
                let hint =
                    suggestions(for: name, among: HistoryMetric.names).first.map { "did you mean '\($0)'?" }
                    ?? "metrics: \(HistoryMetric.names.joined(separator: ", "))"
                throw ValidationError("--metric \(name): unknown metric; \(hint)")
            }
            return metric
        }
    }

    func run() throws {
        let chosen = try chosenMetrics()
        let (repository, root) = try RecordedRuns.openRepository(recorded.repo)
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
        let folder = try RecordedRuns.reportsFolder(recorded.reportsFolder, project: project, root: root)
        var index = try RecordedRuns.updatedIndex(reports: folder, repository: repository, rebuild: rebuildIndex)
        let needed = Set(chosen.compactMap { if case .metric(let metric) = $0 { metric } else { nil } })
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
        var history = HistoryBuilder.build(commits: commits, runs: runs, metrics: chosen, suites: suites.isEmpty ? nil : Set(suites))
        history.lookUpSuspects(in: repository, inputs: try inputPaths(root: root)).forEach(warn)
        if !suites.isEmpty {
            let found = Set(history.series.map(\.key.suite))
            for suite in suites where !found.contains(suite) {
                warn("--suite \(suite): no run of these commits has a suite of that name")
            }
        }
        try output.write(.history(history)) { HistoryReport.render(history) }
    }

    /// What a commit can change of a run: the project file and the suite folders it names (else
    /// `suites`), relative to the repository root.
    private func inputPaths(root: URL) throws -> [String] {
        let projectFile = try project.load(root: root)
        let suitePaths = projectFile?.suites ?? ["suites"]
        return [ProjectFile.fileName] + suitePaths.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }.filter { !$0.hasPrefix("/") }
    }
}

/// Step suspects are named from libgit2 tree diffs against the first parent.
extension GitRepository: ChangedPaths {}
