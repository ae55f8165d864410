import ArgumentParser
import ChatEvalCore
import ChatEvalWorkspace

/// `chateval calibrate`: the gate measures itself on this machine and model. The suites are
/// replayed against themselves (A/A: the same suites, model and settings on both sides) with the
/// gate's own design, a number of times; every regression reported is a false alarm. What it
/// found is kept under the reports folder and printed by every later comparison of this machine
/// class and model, with the thresholds it cannot resolve flagged.
struct CalibrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Measure the gate on this machine: A/A false alarms, each metric's noise, the smallest change it detects.",
        discussion: """
            Each comparison is what `run --baseline` does with the working tree on both sides: interleaved replays in rounds \
            until decided (or --repeat N fixed), at the project's thresholds and false-alarm rate. It takes the comparisons' \
            count times one gate's time: calibrate a subset (--filter, --tag) where the suites are long. Writes \
            <reports>/.chateval/calibration/gate-<machine and model>.json; replays are kept in a scratch folder and removed.

            Examples:
              chateval calibrate
                  the project's suites and model, 110 comparisons
              chateval calibrate --comparisons 20 --repeat 3
                  a quick look: every rate is printed with its 95% interval
              chateval calibrate suites/smoke.yaml --max-repeat 15
            """)

    @OptionGroup var suites: SuiteOptions
    @OptionGroup var selection: SelectionOptions
    @OptionGroup var runtime: RuntimeOptions
    @OptionGroup var recording: RecordingOptions
    @OptionGroup var project: ProjectOptions
    @OptionGroup var comparison: ComparisonOptions
    /// Accepted as it always was; an A/A comparison on one machine is always measured alike.
    @OptionGroup var mismatch: MismatchOptions

    /// 110 by default: 0 or 1 false alarms of 110 put the 95% Clopper–Pearson upper bound below
    /// 5% (3.3% and 4.96%; 0 of 72 is the least that does for 0 alarms, 1 of 110 for 1), so a gate
    /// holding 1% (1.1 alarms expected) shows as under 5% in 70% of calibrations. At 10, 0 of 10
    /// has an upper bound of 31%: nothing is told apart.
    static let defaultComparisons = 110

    @Option(
        help: ArgumentHelp(
            "A/A comparisons to run (\(Self.defaultComparisons): 0 or 1 false alarms then bound the rate below 5%).", valueName: "n"))
    var comparisons = Self.defaultComparisons
    @Option(name: .customLong("repeat"), help: "A fixed number of repetitions per side instead of rounds.") var repetitions: Int?
    @Option(name: .customLong("max-repeat"), help: "The most repetitions per side the rounds may add (default: max_repetitions, else 30).")
    var maxRepetitions: Int?
    @Option(
        name: .customLong("time-budget"),
        help: ArgumentHelp(
            "Per comparison: start no round that would end past this (default: time_budget, else 20m).", valueName: "duration"))
    var timeBudget: String?

    func validate() throws {
        if !(1...1000).contains(comparisons) { throw ValidationError("--comparisons must be between 1 and 1000 (got \(comparisons))") }
        if let repetitions, !(1...10_000).contains(repetitions) {
            throw ValidationError("--repeat must be at least 1 and at most 10000 (got \(repetitions))")
        }
        if let maxRepetitions, !(2...10_000).contains(maxRepetitions) {
            throw ValidationError("--max-repeat must be at least 2 and at most 10000 (got \(maxRepetitions))")
        }
        if let timeBudget, DurationText.seconds(timeBudget) == nil {
            throw ValidationError("--time-budget \(timeBudget): not a duration; write e.g. 20m or 90s")
        }
    }

    func run() async throws {
        try await CalibrationJob(
            settings: recording.workspace(
                project,
                runtime.overrides(
                    suitePaths: suites.given, reportsFolder: recording.reportsFolder, maxRepetitions: maxRepetitions,
                    timeBudget: timeBudget.flatMap(DurationText.seconds))),
            selection: selection.selection(suites), comparisons: comparisons, fixedRepetitions: repetitions,
            comparisonOverrides: try comparison.overrides()
        ).run()
    }
}
