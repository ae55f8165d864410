import ArgumentParser
import ChatEvalReport

/// How much a report shows: verdict and failures by default; the rest on request.
struct ReportOptions: ParsableArguments {
    @Flag(help: "Also print the per-turn tables and every check, passing ones too (and, with --baseline, the per-turn comparison).")
    var verbose = false

    @Flag(
        name: .customLong("show-answers"), help: "Print answers and user messages whole, later lines indented (default: one-line excerpts)."
    )
    var showAnswers = false

    func options(showPrompts: Bool = false) -> RunReportOptions {
        RunReportOptions(verbose: verbose, showAnswers: showAnswers, showPrompts: showPrompts)
    }
}
