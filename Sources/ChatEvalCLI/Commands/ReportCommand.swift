import ArgumentParser
import ChatEvalReport
import ChatEvalWorkspace

/// `chateval report`: recorded results rendered again, in any format, running nothing. One input
/// is its run, or its side-by-side group; two are a comparison, as `compare` reports it, but never
/// a gate. Inputs are found as `compare` finds them (`RunSources`), and rendered by the renderers
/// `run` and `compare` use, so a report of a result file is the report its run wrote.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render recorded results again, in any format: a run, models side by side, or a comparison. Runs nothing.",
        discussion: """
            Each INPUT is a result file, a folder of result files (of one commit), or a git revision (main, HEAD~1, a tag), \
            found as `chateval compare` finds its arguments: the latest complete run recorded for that commit in the reports \
            folder or in git notes. One input is reported as its run, or, when its runs were made side by side (several \
            --model), as that group; two inputs are compared, the first as base, as `chateval compare` reports them, but the \
            verdict never sets the exit code. Each --output file's format comes from its extension \
            (\(ReportFormat.extensions)); with neither --output nor --format the terminal report is printed.

            Examples:
              chateval report reports/<run>.json --output run.html
                  a result file as a page (with its side-by-side group, when it has one)
              chateval report --latest
                  the newest run in the reports folder
              chateval report reports/nightly --output turns.csv
                  every measured turn, one row each
              chateval report HEAD --format markdown
                  this commit's latest run
              chateval report main HEAD --output change.html
                  a comparison, whatever its verdict

            Exit codes: 0 reported (a regression too: report never gates), 2 bad input (an input that is no result file, \
            folder or revision; a folder whose runs are not one run or one group), 3 a report file (--output) could not be \
            written, 5 no run recorded for a revision.
            """)

    @Argument(
        help: ArgumentHelp(
            "A result file, a folder of result files, or a git revision; two of them are compared (base, then head).", valueName: "input"))
    var inputs: [String] = []

    @OptionGroup var recorded: RecordedRunOptions

    @OptionGroup var project: ProjectOptions
    /// For two inputs: the thresholds and false-alarm rate the comparison decides with.
    @OptionGroup var comparison: ComparisonOptions
    @OptionGroup var report: ReportOptions

    @Flag(help: "Report the newest complete run of the reports folder (with the rest of its side-by-side group) instead of an input.")
    var latest = false

    @Flag(name: .customLong("print-prompt"), help: "Print each turn's exact prompt, where the run kept it (run --print-prompt).")
    var printPrompt = false

    /// --format / --output: terminal, json (the record, or the comparison), markdown, junit, html, csv.
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if latest {
            guard inputs.isEmpty else { throw ValidationError("--latest reports the reports folder's newest run; give no input with it") }
            return
        }
        guard (1...2).contains(inputs.count) else {
            throw ValidationError(
                "report takes one input (a run, or models run side by side) or two (base and head, compared), "
                    + "or --latest; got \(inputs.count)"
            )
        }
    }

    func run() throws {
        let sources = try RunSources(repo: recorded.repo, reportsFolder: recorded.reportsFolder, project: project.selection)
        if inputs.count == 2 {
            let (result, runs) = try sources.compare(base: inputs[0], head: inputs[1], overrides: try comparison.overrides())
            // The verdict is the report's to say; the exit code stays 0 (compare is the gate).
            try output.write(.comparison(result, runs: runs)) { ComparisonReport.render(result, verbose: report.verbose) }
            return
        }
        let records = try latest ? sources.latestRuns() : sources.runs(inputs[0])
        try output.write(.runs(records)) {
            RunReport.render(records, options: report.options(showPrompts: printPrompt), loadLevels: RunReport.loadLevels(of: records))
        }
    }
}
