import ArgumentParser
import ChatEvalReport
import ChatEvalWorkspace

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two runs: which metrics changed beyond noise, which checks now fail.",
        discussion: """
            BASE and HEAD are each a result file, a folder of result files (of one commit), or a git revision \
            (main, HEAD~1, a tag, a short id, origin/main): the latest complete run recorded for that commit in the reports \
            folder or in git notes (git fetch origin 'refs/notes/*:refs/notes/*' brings CI's).

            Examples:
              chateval compare HEAD~1 HEAD
                  this commit against its parent's latest run
              chateval compare origin/main HEAD --format markdown
                  for a pull-request comment
              chateval compare reports/a.json reports/b.json --verbose

            Exit codes: 0 no regression, 1 regression (or not decided, with --undecided fail), 2 bad input or the sides are not comparable \
            (another machine, build or settings; --allow-mismatch to gate anyway), 3 a report file (--output) could not be written, \
            4 nothing was measured on both sides (no verdict), 5 no run recorded for a revision.
            """)

    @Argument(help: ArgumentHelp("The run to compare against.", valueName: "base")) var base: String
    @Argument(help: ArgumentHelp("The run under test.", valueName: "head")) var head: String

    @OptionGroup var recorded: RecordedRunOptions

    @OptionGroup var project: ProjectOptions
    @OptionGroup var comparison: ComparisonOptions
    @OptionGroup var mismatch: MismatchOptions

    @Flag(help: "Print the per-turn comparison too.")
    var verbose = false

    /// --format / --output: terminal, json (as reports/schema/comparison.schema.json documents it), markdown, junit, html, csv
    /// (both sides' turns, base first).
    @OptionGroup var output: OutputOptions

    func run() throws {
        let sources = try RunSources(repo: recorded.repo, reportsFolder: recorded.reportsFolder, project: project.selection)
        let (result, runs) = try sources.compare(base: base, head: head, overrides: try comparison.overrides())
        try output.write(.comparison(result, runs: runs)) { ComparisonReport.render(result, verbose: verbose) }
        try GatePolicy(allowMismatch: mismatch.allowMismatch, undecided: comparison.undecided).check(result)
    }
}
