import ChatEvalCompare
import ChatEvalCore
import Foundation

/// A comparison for a terminal or a CI log: the verdict first, then what supports it, then the
/// detail (per-turn rows only with `verbose`).
public enum ComparisonReport {
    public static func render(_ comparison: Comparison, verbose: Bool) -> String {
        // The verdict is the first line: a CI log shows it without scrolling; the whole comparison in one line,
        // HPT-style (how likely head is slower, and by what at least), is the second.
        var lines: [String] = [headline(comparison)]
        if let hpt = comparison.hpt { lines.append(Format.labelled("HPT       ", hpt.sentence, width: RunReport.width)) }
        lines.append("")
        lines.append("base      \(describe(comparison.base))")
        lines.append("head      \(describe(comparison.head))")
        lines += designLines(comparison)
        lines += LedgerReport.comparisonLines(comparison.ledger, verbose: verbose)
        lines += regressionLines(comparison)
        lines += expectationLines(comparison)
        lines += improvementLines(comparison)
        lines += undecidedLines(comparison)
        lines += underpoweredLines(comparison)
        lines += differenceLines(comparison, verbose: verbose)
        lines += suiteTables(comparison, verbose: verbose)
        return lines.joined(separator: "\n")
    }

    /// `title` after a blank line, then `body`; nothing when `body` is empty.
    private static func titled(_ title: String, _ body: [String]) -> [String] {
        body.isEmpty ? [] : ["", title] + body
    }

    /// The metrics, checks and turns that regressed (a metric with a note of the inputs that differ).
    private static func regressionLines(_ comparison: Comparison) -> [String] {
        let quality = comparison.quality
        return titled(
            "Regressions:",
            comparison.metricRegressions.map { suite, change in "  \(suite): \(sentence(change))" + inputsNote(comparison, suite: suite) })
            + titled(
                "Checks that pass significantly less often on head (\(quality.regressions.count)):",
                quality.regressions.flatMap(checkLines))
            + titled(
                "Turns answered significantly less often on head (\(quality.turnRegressions.count)):", quality.turnRegressions.map(turnLine)
            )
    }

    /// The metrics and checks that improved.
    private static func improvementLines(_ comparison: Comparison) -> [String] {
        let quality = comparison.quality
        return titled("Improvements:", comparison.metricImprovements.map { suite, change in "  \(suite): \(sentence(change))" })
            + titled(
                "Checks that pass significantly more often on head (\(quality.improvements.count)):",
                quality.improvements.flatMap(checkLines))
    }

    /// Checks and turns that changed undecided, flaky checks, and checks on one side only.
    private static func undecidedLines(_ comparison: Comparison) -> [String] {
        let quality = comparison.quality
        let exact = exactlyDecided(comparison.ledger)
        var lines = titled(
            "Changed, but too few replays to tell a change from chance (not regressions; more repetitions decide):",
            quality.undecided.map {
                "  \(place($0)) \($0.check): \(counts($0))"
                    + (exact.contains(CheckPlace($0.suite, $0.conversation, $0.turn, $0.position)) ? " — decided exactly above" : "")
            } + quality.turnsUndecided.map(turnLine))
        lines += titled(
            "Flaky checks, mixed verdicts on a side and no significant change (not regressions) (\(quality.flaky.count)):",
            quality.flaky.map { "  \(place($0)) \($0.check): \(counts($0))" })
        if !quality.added.isEmpty || !quality.removed.isEmpty {
            lines.append("")
            lines.append(
                "Checks only on one side: \(quality.added.count) added "
                    + "(\(quality.added.filter { $0.headPassed < $0.headTotal }.count) failing), \(quality.removed.count) removed"
            )
        }
        return lines
    }

    /// The metrics too few or too noisy replays left undecided, with their forecasts, and how to
    /// decide them (a paired run) when the comparison was not one.
    private static func underpoweredLines(_ comparison: Comparison) -> [String] {
        let underpowered = comparison.underpowered
        guard !underpowered.isEmpty else { return [] }
        var lines = ["", "Underpowered (too few or too noisy replays to decide at the threshold):"]
        for (suite, change) in underpowered {
            lines.append("  \(suite): \(change.metric.name) \(interval(change)) — \(change.reason)\(forecast(change))")
        }
        if comparison.sequential == nil, let base = comparison.base.shortCommit {
            let most = underpowered.compactMap(\.change.repetitionsNeeded).filter { $0 < 10_000 }.max()
            lines.append(
                "  to decide: `chateval run --baseline \(Terminal.safe(base))` measures both sides interleaved, "
                    + "adding repetitions until decided"
                    + (most.map { " (about \($0) here; --max-repeat \(max($0, 2)))" } ?? ""))
        }
        return lines
    }

    /// The inputs the suites sent differently (ten unless `verbose`), and the settings that differ.
    private static func differenceLines(_ comparison: Comparison, verbose: Bool) -> [String] {
        var lines: [String] = []
        if let inputs = comparison.inputs, !inputs.isEmpty {
            lines.append("")
            lines.append("Inputs that differ (what the suites sent on head, against base):")
            for input in inputs.prefix(verbose ? inputs.count : 10) {
                lines.append(Format.clip("  " + Terminal.safe(input.description), 100))
            }
            if !verbose, inputs.count > 10 { lines.append("  … and \(inputs.count - 10) more (--verbose lists them all)") }
        }
        lines += titled(
            "Differences between the sides:",
            comparison.differences.map { difference in
                let kind = difference.isCommitDetermined ? "changed by the commits' project files" : "MISMATCH"
                return "  \(difference.field): \(difference.base) → \(difference.head) (\(kind))"
            })
        return lines
    }

    /// Each suite's metric table, and with `verbose` each turn's; the legend under them.
    private static func suiteTables(_ comparison: Comparison, verbose: Bool) -> [String] {
        var lines: [String] = []
        for suite in comparison.suites {
            lines.append("")
            lines.append("suite \(suite.name)")
            // The suite in one line before its metrics.
            if let hpt = suite.hpt { lines.append(Format.labelled("  HPT ", hpt.sentence, width: RunReport.width)) }
            lines.append(table(suite.metrics, firstColumn: "metric") { $0.metric.name }.render(indent: "  "))
            guard verbose else { continue }
            for turn in suite.turns {
                lines.append("")
                lines.append("  \(Terminal.safe(turn.conversation)) turn \(turn.turn)")
                lines.append(table(turn.metrics, firstColumn: "metric") { $0.metric.name }.render(indent: "    "))
            }
        }
        if !verbose, comparison.suites.contains(where: { !$0.turns.isEmpty }) {
            lines.append("")
            lines.append("Per-turn detail: --verbose.")
        }
        if !comparison.suites.isEmpty {
            lines.append(Self.legend)
        }
        return lines
    }

    /// How the verdicts were reached: the family, the look, the runner's calibration, the load.
    public static func designLines(_ comparison: Comparison) -> [String] {
        var lines: [String] = []
        let settings = comparison.settings, design = comparison.design
        let family = comparison.family
        let tested: String
        let method: String
        if let labelings = family.labelings {
            tested = "\(family.tests) tests"
            method =
                family.exact == true
                ? "relabelling replays: all \(labelings) arrangements" : "relabelling replays: \(labelings) drawn arrangements"
        } else {
            tested =
                family.testable == family.tests
                ? "\(family.tests) tests" : "the \(family.testable) of \(family.tests) tests that can reach it"
            method = "Holm"
        }
        if design.isSequential {
            lines.append(
                "gate      preset \(settings.preset): false-alarm rate \(percent(settings.familyErrorRate)) for the whole run, spent over "
                    + "\(design.looks.count) looks at \(design.looks.map(String.init).joined(separator: ", ")) repetitions")
            lines.append(
                "          look \(design.look) spent \(percent(design.familyErrorRate)) over \(tested) (\(method)); "
                    + "\(RunComparatorFormat.confidence(design.confidence)) intervals")
        } else {
            lines.append(
                "gate      preset \(settings.preset): false-alarm rate \(percent(design.familyErrorRate)) over \(tested) (\(method)), "
                    + "\(RunComparatorFormat.confidence(design.confidence)) intervals")
        }
        if let spread = comparison.runSpread {
            let shown = [Metric.timeToFirstToken, .decodeTokensPerSecond].compactMap { metric in
                spread.spreads[metric].map { "\(metric.name) \(String(format: "%.1f%%", $0 * 100))" }
            }
            let origin =
                spread.source == .history
                ? "from \(spread.runs) runs of the base's history" : "the stated default for a shared runner: no history of 4+ runs"
            lines.append(
                "runs      recorded separately: changes must also pass the run-to-run spread (\(shown.joined(separator: ", ")); "
                    + "\(origin)); run --baseline pairs them instead")
        } else if comparison.comparesARunWithItself {
            lines.append(
                "runs      the same recorded run on both sides: every change is 0 by construction, and an interval shows only "
                    + "what its replays could resolve, not how far another run would be")
        }
        lines += floorLines(comparison)
        if let run = comparison.sequential {
            lines.append(
                "rounds    \(run.repetitions) repetitions per side in \(run.rounds) rounds (\(Format.duration(run.seconds))): "
                    + "\(stopSentence(run.stop))"
            )
        }
        if let audit = comparison.calibration {
            lines.append(Format.clip("runner    " + auditSentence(audit), 160))
            for warning in audit.thresholdWarnings(settings) { lines.append("          ⚠ " + warning) }
        }
        lines += loadLines(comparison)
        return lines
    }

    /// How busy the machine was and what that left out or measured again, and in what process
    /// contexts peak memory was measured.
    static func loadLines(_ comparison: Comparison) -> [String] {
        var lines: [String] = []
        let load = comparison.load
        if let screen = load.screenedAt {
            // Runs recorded apart: every replay screened by its own load, whatever recorded it.
            lines.append(
                "load      screened replay by replay (other processes at \(String(format: "%.2f", screen)) cores or more): "
                    + "base \(load.base.leftOut) of \(load.base.sampled) left out, head \(load.head.leftOut) of \(load.head.sampled)")
        }
        // Screened replay by replay, a side's left-out count is said above; what a paired run
        // measured again is said here.
        for (name, side) in [("base", load.base), ("head", load.head)]
        where load.screenedAt == nil ? side.leftOut + side.remeasured > 0 : side.remeasured > 0 {
            lines.append(
                "load      \(name): "
                    + "\(side.remeasured + side.leftOut) of \(side.sampled) replays measured while other processes held the cores: "
                    + "\(side.remeasured) re-measured, \(side.leftOut) left out")
        }
        if let warning = load.warning { lines.append("load      ⚠ " + warning) }
        if let memory = comparison.memoryContext {
            lines.append(Format.labelled("memory    ", (memory.compared ? "" : "⚠ ") + memory.sentence, width: RunReport.width))
        }
        // Kept because a pair's arms saw it alike: only one paired job's runs were screened so.
        if load.warning == nil, load.screenedAt == nil, comparison.runSpread == nil, let b = load.base.meanOtherCores,
            let h = load.head.meanOtherCores, min(b, h) >= ComparisonSettings.defaultBusyThreshold
        {
            lines.append(
                String(
                    format: "load      both sides ran beside other processes (%.2f and %.2f cores on average): kept where a pair's "
                        + "arms saw it alike; the noise is in the intervals", b, h))
        }
        return lines
    }

    /// Separately recorded runs: per gated metric, the smallest change toward worse that their
    /// run-to-run term lets this comparison call (`Comparison.runFloors`); nothing for a paired run.
    static func floorLines(_ comparison: Comparison) -> [String] {
        let floors = comparison.runFloors
        guard !floors.isEmpty else { return [] }
        let bounded = floors.filter(\.change.isFinite), unbounded = floors.filter { !$0.change.isFinite }
        var parts: [String] = []
        if !bounded.isEmpty {
            parts.append(
                "a change under " + bounded.map { "\($0.metric.name) \(signedPercent($0.change))" }.joined(separator: ", ")
                    + " cannot be called here")
        }
        if !unbounded.isEmpty {
            parts.append("no change of \(unbounded.map(\.metric.name).joined(separator: ", ")) can (too few replays to bound one)")
        }
        return ["floor     recorded runs: " + parts.joined(separator: "; ") + "; `run --baseline` decides it paired"]
    }

    /// "0/20 A/A false alarms on this runner (calibrated 2026-11-25); detects ≥ 6.1% ttft at 10 repetitions"
    public static func auditSentence(_ audit: GateAudit) -> String {
        let date = UTCTimestamp.day(audit.measuredAt)
        var text = "this runner: \(audit.falseAlarms)/\(audit.comparisons) A/A false alarms"
        if let rate = audit.falseAlarmRate { text += ", \(rate.percentText()) (95% interval)" }
        text += " (calibrated \(date))"
        if let ttft = audit.weakest(.timeToFirstToken) {
            text += String(
                format: "; detects ≥ %.1f%% ttft at %d repetitions (%@, its noisiest suite)", ttft.detectable * 100, audit.looks.last ?? 0,
                ttft.suite)
        }
        return text
    }

    static func stopSentence(_ stop: SequentialOutcome.Stop) -> String {
        switch stop {
        case .decided: "stopped when every metric, check and turn was decided"
        case .regression: "stopped at a confirmed regression"
        case .maximumRepetitions: "stopped at the most repetitions allowed (max_repetitions)"
        case .timeBudget: "stopped: another round would have passed the time budget (time_budget)"
        case .interrupted: "interrupted"
        }
    }

    static func forecast(_ change: MetricChange) -> String {
        guard let needed = change.repetitionsNeeded else { return "" }
        return needed >= 10_000
            ? "; the change sits at the threshold: no number of repetitions decides it"
            : "; about \(needed) repetitions per side would decide"
    }

    static func counts(_ change: CheckChange) -> String {
        var text = "base \(change.basePassed)/\(change.baseTotal), head \(change.headPassed)/\(change.headTotal) passed"
        if let p = change.adjustedPValue ?? change.pValue {
            text += String(format: ", p = %.2g%@", p, change.adjustedPValue != nil ? " adjusted" : "")
        }
        return text
    }

    static func turnLine(_ change: TurnChange) -> String {
        "  \(Terminal.safe(change.suite)) / \(Terminal.safe(change.conversation)) / turn \(change.turn): "
            + "answered \(change.baseAnswered)/\(change.baseTotal) → "
            + "\(change.headAnswered)/\(change.headTotal); \(Terminal.safe(change.headOutcome))"
    }

    /// One line: what the comparison concludes.
    /// Changes the head's commits expected (`ChatEval-Expect`), accepted and shown, and the
    /// expectations nothing matched; empty without expectations.
    static func expectationLines(_ comparison: Comparison) -> [String] {
        guard let expectations = comparison.expectations, !expectations.isEmpty else { return [] }
        var lines = ["", "Expected by the head's commits (\(Expectation.trailerKey) trailers: what they accept is reported, not failed):"]
        for (suite, change) in comparison.acceptedMetrics {
            lines.append("  ACCEPTED \(suite): \(change.metric.name) \(interval(change)) — \(change.reason)")
        }
        for check in comparison.quality.accepted ?? [] {
            lines.append("  ACCEPTED \(place(check)) \(check.check): \(counts(check))")
        }
        let exact = comparison.ledger?.acceptedChanges ?? 0
        if exact > 0 { lines.append("  ACCEPTED \(exact) exact ledger change\(exact == 1 ? "" : "s") (above)") }
        for expectation in expectations {
            lines.append(
                "  \(expectation.commit) \(Expectation.trailerKey): \(Terminal.safe(expectation.description)) — "
                    + Terminal.safe(outcome(of: expectation, in: comparison)))
        }
        return lines
    }

    /// What became of one trailer: not applied (and why), past its bound (by how much, still
    /// failing), observed, not decided yet, or not observed.
    static func outcome(of expectation: Expectation, in comparison: Comparison) -> String {
        if let reason = expectation.notApplied { return "NOT APPLIED: \(reason)" }
        if let exceeded = expectation.exceeded, !exceeded.isEmpty {
            return "observed, and PAST ITS BOUND (still a regression): " + exceeded.joined(separator: "; ")
        }
        if expectation.observed == true { return "observed" }
        // A metric still underpowered may yet show it: not decided, rather than not observed.
        let open = comparison.underpowered.contains {
            expectation.covers(suite: $0.suite, subject: $0.change.metric.name, direction: expectation.direction)
        }
        return open
            ? "not decided yet (\(ChangeVerdict.underpowered.words) at this look)"
            : "NOT OBSERVED: nothing changed that way in this comparison"
    }

    public static func headline(_ comparison: Comparison) -> String {
        // Every reason the job fails is on the first line (`Comparison.failingReasons`): a suite
        // gate 60 lines down is not one a CI log's reader finds.
        var text = verdict(comparison)
        if let gates = comparison.headGatesFailed, !gates.isEmpty {
            text += " The head's suite gate\(gates.count == 1 ? "" : "s") failed: \(gates.joined(separator: "; "))."
        }
        if comparison.undecidedFails == true, comparison.mismatches.isEmpty, !comparison.hasRegression, !comparison.isDecided {
            text += " It fails the job (--undecided fail)."
        }
        return text
    }

    /// The comparison's own verdict, in one sentence or a few.
    static func verdict(_ comparison: Comparison) -> String {
        if !comparison.mismatches.isEmpty {
            return "NOT COMPARABLE: the sides were measured differently (\(comparison.mismatches.map(\.field).joined(separator: ", ")))."
        }
        let regressions = comparison.metricRegressions.count
        let failing = comparison.quality.regressions.count + comparison.quality.turnRegressions.count
        let exact = (comparison.ledger?.regressions.count ?? 0) + (comparison.ledger?.checkRegressions.count ?? 0)
        if regressions + failing + exact > 0 {
            var parts: [String] = []
            if exact > 0 { parts.append("\(exact) exact ledger change\(exact == 1 ? "" : "s") (turns' work or checks on exact answers)") }
            if regressions > 0 { parts.append("\(regressions) metric\(regressions == 1 ? "" : "s") worse") }
            if failing > 0 {
                parts.append("\(failing) check\(failing == 1 ? "" : "s") or turn\(failing == 1 ? "" : "s") failing more often")
            }
            return "REGRESSION: " + parts.joined(separator: ", ") + "."
        }
        if comparison.measuredNothing {
            let leftOut = comparison.suites.reduce(0) { $0 + $1.leftOut }
            return "NO VERDICT: nothing was measured on both sides"
                + (leftOut > 0
                    ? " (\(leftOut) replay\(leftOut == 1 ? "" : "s") left out: other processes held the cores while they ran)." : ".")
        }
        let underpowered = comparison.underpowered.count
        let undecided = comparison.quality.undecided.count + comparison.quality.turnsUndecided.count
        let improvements = comparison.metricImprovements.count + comparison.quality.improvements.count
        // Anything open leads: a comparison that could not decide is not a pass in words either.
        var text = comparison.isDecided ? "No regression." : "NOT DECIDED: no regression shown, but not everything was decided."
        if !comparison.isDecided, let missed = comparison.missed { text += " " + missedWords(missed) }
        let accepted = comparison.acceptedCount
        if accepted > 0 { text += " \(accepted) expected change\(accepted == 1 ? "" : "s") accepted (\(Expectation.trailerKey))." }
        if improvements > 0 { text += " \(improvements) improvement\(improvements == 1 ? "" : "s")." }
        let notWorse = comparison.notWorse.count
        if notWorse > 0 { text += " \(notWorse) metric\(notWorse == 1 ? "" : "s") \(ChangeVerdict.notWorse.words) (could be better)." }
        if underpowered > 0 {
            text += " \(underpowered) metric\(underpowered == 1 ? "" : "s") \(ChangeVerdict.underpowered.words) (see below)."
        }
        if undecided > 0 {
            text += " \(undecided) check\(undecided == 1 ? "" : "s") or turn\(undecided == 1 ? "" : "s") changed, too few replays to tell."
        }
        return text
    }

    /// "A 10% TTFT slowdown in smoke would be missed about 63% of the time at this budget (3
    /// repetitions per side)." — what "not decided" could not rule out.
    static func missedWords(_ missed: MissedChange) -> String {
        let worse = missed.metric.polarity == .smallerIsBetter ? "slowdown" : "drop"
        let rate = Int((missed.missRate * 100).rounded())
        let chance =
            rate >= 100 ? "would be missed" : rate <= 0 ? "would almost surely be caught" : "would be missed about \(rate)% of the time"
        return "A \(Int((missed.change * 100).rounded()))% \(missed.metric.label) \(worse) in \(Terminal.safe(missed.suite)) "
            + "\(chance) at this budget (\(Format.count(missed.repetitions, "repetition")) per side)."
    }

    /// "; inputs changed in this suite: system prompt ×2, user message" — what could explain a
    /// suite's change, or "" when its inputs are the same on both sides.
    static func inputsNote(_ comparison: Comparison, suite: String) -> String {
        let fields = (comparison.inputs ?? []).filter { $0.suite == suite }.map(\.field.rawValue)
        guard !fields.isEmpty else { return "" }
        var counts: [(String, Int)] = []
        for field in fields {
            let name = field.replacingOccurrences(of: "_", with: " ")
            if let index = counts.firstIndex(where: { $0.0 == name }) { counts[index].1 += 1 } else { counts.append((name, 1)) }
        }
        return "; inputs changed in this suite: " + counts.map { $0.1 > 1 ? "\($0.0) ×\($0.1)" : $0.0 }.joined(separator: ", ")
    }

    /// What the columns of a comparison's tables are, so that base, head and change reconcile.
    public static let legend =
        "(base, head: a typical turn, the per-turn medians' geometric mean (their mean for shares such as reuse); "
        + "change: head ÷ base per turn (head − base for shares), the stratified Hodges-Lehmann estimate, with its interval; "
        + "n: replays per side)"

    /// "TTFT +12.3% [+8.1%, +16.2%] (typical turn 191 ms → 214 ms)"
    static func sentence(_ change: MetricChange) -> String {
        "\(change.metric.name) \(interval(change)) (typical turn \(Format.value(change.baseLevel, of: change.metric)) → "
            + "\(Format.value(change.headLevel, of: change.metric)))"
    }

    static func interval(_ change: MetricChange) -> String {
        guard let estimate = change.change else { return "–" }
        return "\(signed(estimate, change)) [\(signed(change.changeLower, change)), \(signed(change.changeUpper, change))]"
    }

    private static func signed(_ value: Double?, _ change: MetricChange) -> String {
        guard let value else { return "?" }
        if change.scale == .relative || !value.isFinite { return signedPercent(value) }
        return String(format: "%+.3f", value)
    }

    /// A relative change as reports print it: "+10.4%", "−∞" for an end the samples cannot bound.
    static func signedPercent(_ value: Double) -> String {
        if value == .infinity { return "+∞" }
        if value == -.infinity { return "−∞" }
        return String(format: "%+.1f%%", value * 100)
    }

    private static func table(_ changes: [MetricChange], firstColumn: String, name: (MetricChange) -> String) -> TextTable {
        var table = TextTable([
            .init(firstColumn, .left), .init("base"), .init("head"), .init("change"), .init("interval", .left),
            .init("n", .right), .init("verdict", .left),
        ])
        for change in changes {
            let verdict =
                change.verdict == .underpowered
                ? change.verdict.words + (change.repetitionsNeeded.map { $0 >= 10_000 ? " (at threshold)" : " (~\($0) reps)" } ?? "")
                : change.verdict.words
            let low = signed(change.changeLower, change), high = signed(change.changeUpper, change)
            table.add([
                name(change), Format.value(change.baseLevel, of: change.metric), Format.value(change.headLevel, of: change.metric),
                change.change.map { _ in signed(change.change, change) } ?? "–", change.change == nil ? "" : "[\(low), \(high)]",
                "\(change.baseCount)/\(change.headCount)", verdict,
            ])
        }
        return table
    }

    private static func checkLines(_ change: CheckChange) -> [String] {
        var lines = ["  \(place(change)) \(change.check): \(counts(change)); \(Terminal.safe(change.detail ?? ""))"]
        if let answer = change.answerExcerpt { lines.append("      answer: \(Terminal.safe(answer))") }
        return lines
    }

    /// Where a check sits: suite, conversation, turn (nil: the conversation's own checks) and its
    /// 1-based position among the turn's checks.
    private struct CheckPlace: Hashable {
        let suite: String, conversation: String, turn: Int?, position: Int
        init(_ suite: String, _ conversation: String, _ turn: Int?, _ position: Int) {
            (self.suite, self.conversation, self.turn, self.position) = (suite, conversation, turn, position)
        }
    }

    /// The checks the ledger comparison decided as certain changes (exact answers on both sides),
    /// as a set: searched for every undecided check, they were quadratic in the changed checks.
    private static func exactlyDecided(_ ledger: LedgerComparison?) -> Set<CheckPlace> {
        guard let ledger, ledger.notGated == nil else { return [] }
        return Set(ledger.checks.map { CheckPlace($0.turn.suite, $0.turn.conversation, $0.turn.turn, $0.position + 1) })
    }

    private static func place(_ change: CheckChange) -> String {
        "\(Terminal.safe(change.suite)) / \(Terminal.safe(change.conversation)) / " + (change.turn.map { "turn \($0)" } ?? "conversation")
            + " / check \(change.position)"
    }

    private static func describe(_ side: ComparedSide) -> String {
        var text = side.shortCommit ?? "no commit"
        if side.dirty { text += " (dirty)" }
        if let subject = side.subject { text += " \"\(Terminal.safe(subject))\"" }
        let runs = side.runs.count == 1 ? "1 run" : "\(side.runs.count) runs"
        text += " — \(runs), \(side.repetitions) repetition\(side.repetitions == 1 ? "" : "s"), \(side.model); \(side.machine)"
        if let source = side.sources.first {
            text += "\n          from \(source)" + (side.sources.count > 1 ? " and \(side.sources.count - 1) more" : "")
        }
        return text
    }

    static func percent(_ value: Double) -> String {
        if value * 100 < 0.1 { return String(format: "%.2g%%", value * 100) }
        let text = String(format: "%.2f", value * 100)
        return (text.hasSuffix(".00") ? String(text.dropLast(3)) : text) + "%"
    }
}
