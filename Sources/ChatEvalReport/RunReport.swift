import ChatEvalCompare
import ChatEvalCore
import ChatEvalStore

/// The readable summary of a finished (or interrupted) run, verdict first: whether it passed,
/// the gates that failed, one line per suite (and per model, side by side), the checks that
/// failed and the runtime failures; then, for several models, every turn side by side; and,
/// behind `verbose`, the per-turn tables and passing checks. Lines fit 100 columns, apart from
/// answers shown whole.
public enum RunReport {
    public static let width = 100

    public static func render(_ record: RunRecord, options: RunReportOptions = RunReportOptions()) -> String {
        render([record], options: options)
    }

    /// Kept for callers that only choose whether answers are whole.
    public static func render(_ record: RunRecord, showAnswers: Bool) -> String {
        render([record], options: RunReportOptions(showAnswers: showAnswers))
    }

    public static func render(_ records: [RunRecord], options: RunReportOptions = RunReportOptions()) -> String {
        let labels = records.map { records.count > 1 ? ($0.group?.label ?? $0.runtime.model.description) : nil }
        let summary = RunSummary(records, labels: labels)
        var sections = [verdict(summary, records)]
        if summary.failedGateCount > 0 { sections.append(failedGates(summary)) }
        sections.append(suiteTable(summary, sideBySide: records.count > 1))
        if records.count > 1 || ModelTable.isBenchmark(records) { sections.append(ModelTable(records).terminal()) }
        if let busy = busyReplays(records) { sections.append(busy) }
        // Whether each turn's work repeated exactly (established over the repetitions, never assumed): one line per model, named.
        let named = { (record: RunRecord) in records.count > 1 ? record.modelLabel : nil }
        let ledger = records.flatMap { LedgerReport.determinismLines([$0], verbose: options.verbose, model: named($0)) }
        // Whether each later turn's prompt extends the previous prompt and answer (session mode).
        let accounting = records.flatMap { LedgerReport.accountingLines([$0], verbose: options.verbose, model: named($0)) }
        if !(ledger + accounting).isEmpty { sections.append((ledger + accounting).joined(separator: "\n")) }
        if !summary.runtimeFailures.isEmpty { sections.append(runtimeFailures(summary, options)) }
        if !summary.failedChecks.isEmpty { sections.append(failedChecks(summary, options)) }
        if !summary.echoedChecks.isEmpty { sections.append(failedChecks(summary, options, echoed: true)) }
        // Models and suite variants side by side, with the differences a test backs marked.
        if let matrix = VariantMatrix.build(records, labels: records.map { $0.group?.label ?? $0.runtime.model.description }) {
            sections.append(MatrixReport.render(matrix))
        }
        // Conversations tagged multi-turn-if: per-turn accuracy, forgetting and survival.
        let instructionFollowing = InstructionFollowingScores.sections(records, labels: labels)
        if !instructionFollowing.isEmpty { sections.append(InstructionFollowingReport.render(instructionFollowing)) }
        if records.count > 1 { sections.append(SideBySide.render(records, labels: labels.map { $0 ?? "" }, options: options)) }
        // Asking for whole answers or prompts shows every turn's, passing ones too.
        if options.verbose || options.showPrompts || options.showAnswers {
            for (record, label) in zip(records, labels) { sections.append(details(record, label: label, options: options)) }
        }
        let more = [
            options.verbose ? nil : "--verbose (per-turn tables, every check)", options.showAnswers ? nil : "--show-answers (whole texts)",
            options.showPrompts ? nil : "--print-prompt",
        ].compactMap { $0 }
        if !more.isEmpty { sections.append("more: " + more.joined(separator: " · ")) }
        if summary.incomplete { sections.append("INCOMPLETE: the run was interrupted; the results above are what was measured.") }
        return sections.joined(separator: "\n\n")
    }

    // MARK: Sections

    private static func verdict(_ summary: RunSummary, _ records: [RunRecord]) -> String {
        let turns = records.map { $0.suites.flatMap { $0.conversations.filter(\.isMeasured).flatMap(\.turns) }.count }.reduce(0, +)
        let repetitions = records.map(\.settings.repetitions).max() ?? 1
        let impliedSuites = summary.lines.filter(\.gatesImplied).count
        let gates =
            summary.checksDecide
            ? "no gates declared, so every check had to pass"
            : summary.failedGateCount == 0
                ? (summary.gateCount == 1 ? "the gate passed" : "all \(summary.gateCount) gates passed")
                    + (impliedSuites > 0 ? " (\(plural(impliedSuites, "suite")) without gates: every check)" : "")
                : "\(summary.failedGateCount) of \(summary.gateCount) gates failed"
        let mark = summary.passed ? "✓ PASS" : (summary.incomplete && summary.failedGateCount == 0 ? "✗ INCOMPLETE" : "✗ FAIL")
        let models = records.count > 1 ? " on \(records.count) models" : ""
        let echoed = summary.echoedChecks.isEmpty ? "" : " (\(summary.echoedChecks.count) only on an echo of the prompt)"
        return "\(mark): \(gates) · \(summary.checksPassed)/\(summary.checksTotal) checks passed\(echoed) · "
            + "\(plural(summary.runtimeFailures.count, "runtime failure")) · \(turns) turns\(models), \(plural(repetitions, "rep"))"
    }

    /// The replays measured while other processes kept the cores busy, named, so that their
    /// timings are read with that noise in mind; nil when none was (or no load was recorded).
    static func busyReplays(_ records: [RunRecord]) -> String? {
        var measured = 0
        var busy: [(String, ReplayLoad)] = []
        for record in records {
            for suite in record.suites {
                for replay in suite.conversations where replay.isMeasured {
                    measured += 1
                    guard let load = replay.load, load.isBusy else { continue }
                    let model = records.count > 1 ? " · \(record.modelLabel)" : ""
                    busy.append(("\(suite.name)/\(replay.id) · rep \(replay.repetition)\(model)", load))
                }
            }
        }
        guard !busy.isEmpty else { return nil }
        let threshold = String(format: "%.2f", MachineLoad.busyThreshold)
        var lines = [
            Format.wrap(
                "⚠ \(busy.count) of \(measured) replays measured while other processes used \(threshold) cores or more: "
                    + "their timings carry that noise", width: width, hanging: "  ")
        ]
        for (place, load) in busy.prefix(10) {
            lines.append(Format.clip("  \(place): \(String(format: "%.2f", load.otherCores)) other cores", width))
        }
        if busy.count > 10 { lines.append("  … and \(busy.count - 10) more") }
        // Which processes held the cores, with their ids, as sampled when each model's run started and
        // over the whole run (the half second after it in records written before the end sample had a length).
        for record in records {
            let model = records.count > 1 ? " (\(record.modelLabel))" : ""
            let end = record.environment?.end
            for (when, load) in [("at the start", record.environment?.start), (end?.seconds == nil ? "at the end" : "over the run", end)] {
                guard let load, load.isBusy, !load.busiest.isEmpty else { continue }
                lines.append(
                    Format.wrap("  busiest \(when)\(model): \(Terminal.safe(load.busiestNamed(5)))", width: width, hanging: "    "))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func failedGates(_ summary: RunSummary) -> String {
        var lines = ["gates failed"]
        for line in summary.lines {
            for gate in line.failedGates {
                let who = line.label.map { "\(line.suite) [\($0)]" } ?? line.suite
                lines.append(Format.wrap("  ✗ \(who): \(gate.described) — found \(gate.found)", width: width, hanging: "      "))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func suiteTable(_ summary: RunSummary, sideBySide: Bool) -> String {
        var columns: [TextTable.Column] = [.init("suite", .left)]
        if sideBySide { columns.append(.init("model", .left)) }
        columns += [
            .init("checks"), .init("pass"), .init("TTFT p50"), .init("TTFT p95"), .init("decode t/s"), .init("spread"), .init("failures"),
        ]
        var table = TextTable(columns)
        var previous: String?
        // Names wrap within their column, never cut: "instruction-phrasing" and "…-Q4_1" beside "…-Q8_0" stay whole.
        func named(_ mark: String, _ name: String, _ width: Int) -> String {
            mark + " " + Format.wrapName(name, width: width).replacingOccurrences(of: "\n", with: "\n  ")
        }
        for line in summary.lines {
            let mark = line.failedGates.isEmpty ? "✓" : "✗"
            var cells = [previous == line.suite && sideBySide ? "" : named(mark, line.suite, 22)]
            if sideBySide {
                cells = [previous == line.suite ? mark : named(mark, line.suite, 14), Format.wrapName(line.label ?? "", width: 15)]
            }
            previous = line.suite
            cells += [
                "\(line.checksPassed)/\(line.checksTotal)", Format.percent(line.passRate),
                Format.duration(line.timeToFirstToken?.p50), Format.duration(line.timeToFirstToken?.p95),
                Format.rate(line.decodeTokensPerSecond?.p50),
                line.repetitions < 2 ? "1 rep" : "\(Format.percent(line.timeToFirstTokenSpread)) of \(line.repetitions)",
                String(line.unexpectedFailures),
            ]
            table.add(cells)
        }
        let legend = "(spread: range of the repetitions' TTFT medians ÷ their median; failures: turns failed unexpectedly)"
        return table.render() + "\n" + legend
    }

    private static func runtimeFailures(_ summary: RunSummary, _ options: RunReportOptions) -> String {
        var lines = ["runtime failures (\(summary.runtimeFailures.count))"]
        for failure in summary.runtimeFailures {
            lines.append(
                "  " + place(failure.suite, failure.label, failure.conversation, turn: failure.turn.index, repetition: failure.repetition))
            lines.append("    user   " + text(failure.turn.user, options, indent: "           "))
            lines.append("    ✗ \(failure.turn.failure?.description ?? "failed")")
        }
        return lines.joined(separator: "\n")
    }

    /// The failed checks, or with `echoed` the checks that passed only on an echo of the prompt,
    /// under their turns with the user message and the answer.
    private static func failedChecks(_ summary: RunSummary, _ options: RunReportOptions, echoed: Bool = false) -> String {
        let checks = echoed ? summary.echoedChecks : summary.failedChecks
        var lines = [
            echoed
                ? "checks that passed only because the answer repeats the prompt (\(checks.count)): "
                    + "they measure the prompt, not the model"
                : "failed checks (\(checks.count))"
        ]
        var lastTurn: String?
        for failed in checks {
            let where_ = place(failed.suite, failed.label, failed.conversation, turn: failed.turn?.index, repetition: failed.repetition)
            if where_ != lastTurn {
                lines.append("  " + where_)
                if let turn = failed.turn {
                    lines.append("    user   " + text(turn.user, options, indent: "           "))
                    switch turn.status {
                    case .answered: lines.append("    model  " + text(turn.answer ?? "", options, indent: "           "))
                    case .failed: lines.append("    failed \(turn.failure?.description ?? "")")
                    case .skipped: lines.append("    skipped: \(turn.skipReason ?? "")")
                    }
                }
                lastTurn = where_
            }
            let times =
                echoed
                ? " — only because the answer repeats \(failed.verdict.echo ?? "the prompt")"
                    + (failed.repetitions > 1 ? " (in \(failed.failedIn) of \(failed.repetitions) repetitions)" : "")
                : failed.repetitions > 1
                    ? " (failed in \(failed.failedIn) of \(failed.repetitions) repetitions\(failed.isFlaky ? ": flaky" : ""))" : ""
            lines.append(Format.wrap(VerdictLine.render(failed.verdict, indent: "    ") + times, width: width, hanging: "      "))
        }
        return lines.joined(separator: "\n")
    }

    /// Per suite and conversation, for the first measured repetition (the summary above covers
    /// all of them): every turn's texts and checks; with `verbose`, the per-turn table and the
    /// suite's medians and gates too.
    private static func details(_ record: RunRecord, label: String?, options: RunReportOptions) -> String {
        var lines: [String] = []
        let repetitions = record.settings.repetitions
        for suite in record.suites {
            lines.append(
                Format.clip("suite \(suite.name)\(label.map { " [\($0)]" } ?? "") — \(suite.path)", width)
                    + (suite.description.map { "\n" + Format.clip("  \($0)", width) } ?? ""))
            for conversation in suite.conversations where conversation.isMeasured && conversation.repetition == 1 {
                let tags = conversation.tags.map { " [\($0.joined(separator: ", "))]" } ?? ""
                let which = repetitions > 1 ? " — repetition 1 of \(repetitions)" : ""
                lines.append(
                    "\n" + Format.clip("  \(conversation.id)\(tags)\(which)" + (conversation.description.map { ": \($0)" } ?? ""), width))
                // The per-turn table is --verbose's; --show-answers and --print-prompt alone show the texts.
                if options.verbose { lines.append(TurnTable.render(conversation.turns, indent: "    ")) }
                for turn in conversation.turns {
                    // Failed checks under each answer; passing ones are --verbose's (--show-answers shows the answers).
                    lines.append(AnswerLines.render(turn, full: options.showAnswers, indent: "    ", passingChecks: options.verbose))
                    if options.showPrompts, let prompt = turn.replayed.prompt {
                        lines.append("       prompt  " + indented(prompt, by: "               "))
                    }
                }
                lines += conversation.checks.filter { options.verbose || !$0.passed }.map {
                    VerdictLine.render($0, indent: "    conversation ", width: width)
                }
            }
            if options.verbose {
                lines.append("")
                lines.append(SuiteSummary.render(suite.measuredTurns, laterTurns: suite.measuredLaterTurns, indent: "  "))
                let gates = GateReport.render(verdicts: suite.measuredVerdicts, gates: suite.gates, indent: "  ")
                if !gates.isEmpty { lines.append("\n" + gates) }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n").trimmingSuffix()
    }

    // MARK: Pieces

    /// "suite/conversation · turn 2 · rep 1 · label", the names clipped so that the line fits.
    static func place(_ suite: String, _ label: String?, _ conversation: String, turn: Int?, repetition: Int) -> String {
        let rest =
            (turn.map { " · turn \($0 + 1)" } ?? " · conversation") + " · rep \(repetition)"
            + (label.map { " · \(Format.clip($0, 28))" } ?? "")
        return Format.clip("\(suite)/\(conversation)", width - 2 - rest.count) + rest
    }

    /// A message or answer: one excerpt line, or the whole text with later lines indented.
    static func text(_ text: String, _ options: RunReportOptions, indent: String) -> String {
        options.showAnswers ? indented(text, by: indent) : Format.excerpt(text, limit: width - indent.count)
    }

    static func indented(_ text: String, by indent: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + indent)
    }

    private static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}

private extension String {
    func trimmingSuffix() -> String {
        var copy = self
        while copy.last == "\n" { copy.removeLast() }
        return copy
    }
}
