import ArgumentParser
import ChatEvalCompare
import ChatEvalCore
import ChatEvalGit
import ChatEvalReport
import ChatEvalStore
import Foundation

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two runs: which metrics changed beyond noise, which checks now fail.",
        discussion: """
            BASE and HEAD are each a result file, a folder of result files (of one commit), or a git revision \
            (main, HEAD~1, a tag, a short id, origin/main): the latest complete run recorded for that commit in the reports \
            folder or in git notes (git fetch origin 'refs/notes/*:refs/notes/*' brings CI's).

            Examples:
              chateval compare HEAD~1 HEAD                          this commit against its parent's latest run
              chateval compare origin/main HEAD --format markdown   for a pull-request comment
              chateval compare reports/a.json reports/b.json --verbose

            Exit codes: 0 no regression, 1 regression, 2 bad input or the sides are not comparable \
            (another machine, build or settings; --allow-mismatch to gate anyway), 3 a report file (--output) could not be written, \
            4 nothing was measured on both sides (no verdict), 5 no run recorded for a revision.
            """)

    @Argument(help: ArgumentHelp("The run to compare against.", valueName: "base")) var base: String
    @Argument(help: ArgumentHelp("The run under test.", valueName: "head")) var head: String

    @Option(
        name: .customLong("reports"),
        help: ArgumentHelp("Folder of result files to look revisions up in (default: the project file's, else reports).", valueName: "dir"))
    var reportsFolder: String?

    @Option(help: ArgumentHelp("Repository to resolve revisions in (default: found from the current folder upward).", valueName: "path"))
    var repo: String?

    @OptionGroup var project: ProjectOptions
    @OptionGroup var comparison: ComparisonOptions

    @Flag(help: "Print the per-turn comparison too.")
    var verbose = false

    /// --format / --output: terminal, json (as reports/schema/comparison.schema.json documents it), markdown, junit, html.
    @OptionGroup var output: OutputOptions

    func run() throws {
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
        let projectFile = try project.load(root: root)
        let folder =
            reportsFolder ?? projectFile?.reports.map { $0.hasPrefix("/") ? $0 : root.appendingPathComponent($0).path } ?? "reports"
        let locator = RunLocator(repository: repository, reportsFolder: URL(fileURLWithPath: folder))

        let headLocated = try locator.locate(head)
        let baseLocated = try locator.locate(base)
        guard let headRuns = headLocated.choose(matching: baseLocated.latest) else { throw Self.missing(headLocated, folder: folder) }
        guard let baseRuns = baseLocated.choose(matching: headRuns.runs.last) else { throw Self.missing(baseLocated, folder: folder) }

        let settings = ComparisonSettings.default.applying(projectFile?.compare ?? ComparisonOverrides())
        var result = RunComparator.compare(
            base: baseRuns, head: headRuns, settings: settings, commandLine: try comparison.overrides(),
            look: .recorded(base: baseRuns.runs, head: headRuns.runs))
        if let latest = headRuns.runs.max(by: { $0.startedAt < $1.startedAt }) {
            result.calibration = GateAuditStore.load(for: latest, reports: folder)
        }
        try output.write(.comparison(result)) { ComparisonReport.render(result, verbose: verbose) }
        try Self.exit(for: result, allowMismatch: comparison.allowMismatch)
    }

    /// Exit 2 for incomparable sides (unless allowed), 1 for a regression, 4 when nothing was
    /// measured on both sides (no verdict), else returns.
    static func exit(for result: Comparison, allowMismatch: Bool) throws {
        if !result.mismatches.isEmpty && !allowMismatch {
            let list = result.mismatches.map { "\($0.field) (\($0.base) → \($0.head))" }.joined(separator: "; ")
            throw failure(
                "the sides were not measured alike: \(list); compare runs of one machine and build, or pass --allow-mismatch", .badInput)
        }
        if result.hasRegression {
            throw failure(ComparisonReport.headline(result), .gateFailed)
        }
        if result.measuredNothing {
            throw failure(
                ComparisonReport.headline(result) + " Measure on a quieter runner, raise time_budget, "
                    + "or keep disturbed replays with --busy-threshold off", .noVerdict)
        }
    }

    /// Exit 5 with how to produce the missing run.
    static func missing(_ located: RunLocator.Located, folder: String) -> ExitCode {
        guard case .commit(let commit, let label, _) = located else { return failure("no runs found", .baselineMissing) }
        return failure(
            """
            no complete run recorded for \(label) in \(folder)/ or in the git notes \(GitRepository.chatEvalNotesRef). \
            Record one with `git checkout \(commit.prefix(12)) && chateval run --git-note`, fetch CI's with \
            `git fetch origin 'refs/notes/*:refs/notes/*'`, or measure both sides in one job with `chateval run --baseline \(commit.prefix(12))`
            """, .baselineMissing)
    }
}
