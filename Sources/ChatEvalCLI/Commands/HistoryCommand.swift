import ArgumentParser
import ChatEvalCore
import ChatEvalHistory
import ChatEvalReport
import ChatEvalWorkspace

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
        let history = try HistoryQuery(
            since: since, maxCount: maxCount, suites: suites, metrics: try chosenMetrics(), repo: recorded.repo,
            reportsFolder: recorded.reportsFolder, project: project.selection, rebuildIndex: rebuildIndex
        ).build()
        try output.write(.history(history)) { HistoryReport.render(history) }
    }
}
