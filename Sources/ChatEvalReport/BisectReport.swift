import ChatEvalCompare
import ChatEvalCore
import Foundation

/// A bisection for people: each signal's culprit with the change it caused and its interval,
/// what could not be decided (named, never guessed), every probe with its repetitions and time,
/// the commits skipped and why, and how sure — as terminal text or Markdown.
public enum BisectReport {
    /// The terminal report.
    public static func render(_ outcome: BisectOutcome) -> String {
        var lines = header(outcome)
        for finding in outcome.findings {
            lines.append("")
            lines.append(finding.signal.description)
            lines += findingLines(finding, outcome).map { "  " + $0 }
        }
        for reading in outcome.undecidedAtEndpoints {
            lines.append("")
            lines.append(
                "\(Terminal.safe(reading.signal.description)): undecided between the ends, not chased (\(Terminal.safe(reading.detail)))")
        }
        if let reason = outcome.timingNotMeasured {
            lines.append("")
            lines.append("timings: not compared — \(reason); the exact culprits above stand")
        }
        lines.append("")
        lines.append("probes")
        lines += probeRows(outcome).map { row in
            "  "
                + row.enumerated().map {
                    $0.offset == row.count - 1 ? $0.element : $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0)
                }
                .joined(separator: "  ")
        }
        if !outcome.skipped.isEmpty {
            lines.append("")
            lines.append("skipped (\(Format.count(outcome.skipped.count, "commit")))")
            lines += outcome.skipped.map { "  \($0.shortId) \"\(Format.clip($0.subject, 48))\": \($0.reason)" }
        }
        lines.append("")
        lines.append(summary(outcome))
        return lines.joined(separator: "\n")
    }

    /// The Markdown report (a CI job summary).
    public static func markdown(_ outcome: BisectOutcome) -> String {
        var out = ["## chateval bisect", ""] + header(outcome).map { Markup.markdown($0) + "  " }
        for finding in outcome.findings {
            out += ["", "### \(Markup.markdown(finding.signal.description))", ""]
            out += findingLines(finding, outcome).map { "- " + Markup.markdown($0) }
        }
        for reading in outcome.undecidedAtEndpoints {
            out += [
                "",
                "- **\(Markup.markdown(reading.signal.description))**: undecided between the ends, not chased "
                    + "(\(Markup.markdown(reading.detail)))",
            ]
        }
        if let reason = outcome.timingNotMeasured {
            out += ["", "- **timings**: not compared — \(Markup.markdown(reason)); the exact culprits above stand"]
        }
        let rows = probeRows(outcome)
        out += [
            "", "### Probes", "", "| " + rows[0].joined(separator: " | ") + " |", "|" + String(repeating: "---|", count: rows[0].count),
        ]
        out += rows.dropFirst().map { "| " + $0.map(Markup.markdown).joined(separator: " | ") + " |" }
        if !outcome.skipped.isEmpty {
            out += ["", "### Skipped: \(Format.count(outcome.skipped.count, "commit"))", ""]
            out += outcome.skipped.map { "- `\($0.shortId)` \(Markup.markdown($0.subject)): \(Markup.markdown($0.reason))" }
        }
        out += ["", Markup.markdown(summary(outcome))]
        return out.joined(separator: "\n") + "\n"
    }

    private static let widths = [3, 22, 44, 5, 9]

    private static func header(_ outcome: BisectOutcome) -> [String] {
        let commits = outcome.states.count - 1 + outcome.states.reduce(0) { $0 + $1.folded.count }
        var lines = [
            "good      \(describe(outcome.good))",
            "bad       \(describe(outcome.bad))"
                + (outcome.bad.commit == outcome.states.last?.commit
                    ? "" : " (replays as \(outcome.states.last?.shortId ?? "?"), the last commit that changed an input)"),
            "range     \(Format.count(commits, "commit")) after the good one: \(outcome.states.count - 1) change an input, "
                + "\(outcome.skipped.count) skipped",
        ]
        if let budget = outcome.budget, let confidence = outcome.confidence {
            lines.append(
                "confidence \(percent(confidence)) that every culprit named is right (error rate \(percent(budget.errorRate)): "
                    + "the ends \(percent(budget.endpoints))"
                    + (budget.testedSignals > 0
                        ? ", each tested probe \(percent(budget.perProbe)), at most \(budget.probesPerSignal) a signal" : "")
                    + "; an exact signal is a fact where both commits replayed greedily under one arithmetic, "
                    + "and undecided elsewhere) — if each signal steps once or twice in the range and is not undone inside it")
        }
        if outcome.interrupted { lines.append("INTERRUPTED — what was found so far; the same command resumes without measuring again") }
        return lines
    }

    private static func findingLines(_ finding: SignalFinding, _ outcome: BisectOutcome) -> [String] {
        var lines: [String] = []
        for (index, culprit) in finding.culprits.enumerated() {
            let state = outcome.states[culprit.state]
            lines.append(
                (index == 0 ? "culprit   " : "second    ") + describe(state) + " — " + change(culprit.reading)
                    + " against \(outcome.states[culprit.comparedWith].shortId)")
        }
        for range in finding.undecided {
            lines.append(
                "UNDECIDED the step lies after \(outcome.states[range.after].shortId) and at or before "
                    + "\(outcome.states[range.through].shortId); the probe of \(outcome.states[range.probed].shortId) could not decide "
                    + "(\(Terminal.safe(range.reading.detail)))")
        }
        if outcome.outOfTime?.contains(finding.signal) == true { lines.append("TIME      the time budget ran out during this search") }
        if finding.culprits.isEmpty && finding.undecided.isEmpty && outcome.interrupted { lines.append("not finished (interrupted)") }
        lines.append("ends      " + change(finding.endpoints))
        lines += finding.notes.map { "note      " + Terminal.safe($0) }
        return lines
    }

    private static func probeRows(_ outcome: BisectOutcome) -> [[String]] {
        var rows = [["#", "compared", "question", "reps", "time"]]
        let all = (outcome.exactEndpoints.map { [$0] } ?? []) + (outcome.endpoints.map { [$0] } ?? []) + outcome.probes
        for (index, log) in all.enumerated() {
            let question: String
            switch log.probe.kind {
            case .endpoints: question = "the ends in rounds: every signal"
            case .exact:
                question =
                    log.probe.base == 0 && log.probe.head == outcome.states.count - 1 && index == 0
                    ? "the ends, exactly: one greedy replay each" : "exact: one greedy replay each"
            case .paired(let signal, let threshold, _):
                // The threshold asked; the probe never tests below the gate's own (`BisectReadings.settings`).
                question = "\(signal.description)" + (threshold.map { " (± max(gate, \(percent($0))))" } ?? "")
            }
            rows.append([
                String(index), "\(outcome.states[log.probe.head].shortId) vs \(outcome.states[log.probe.base].shortId)",
                Format.clip(question, 44), String(log.result.repetitions),
                log.result.resumed ? "resumed" : seconds(log.result.seconds),
            ])
        }
        return rows
    }

    private static func summary(_ outcome: BisectOutcome) -> String {
        let measured = outcome.measured
        let resumed = ((outcome.exactEndpoints.map { [$0] } ?? []) + (outcome.endpoints.map { [$0] } ?? []) + outcome.probes)
            .filter(\.result.resumed).count
        let repetitions = "\(Format.count(measured.repetitions, "repetition")) per side in all"
        guard measured.probes > 0 else {
            return
                "nothing measured again: \(Format.count(resumed, "probe")) read back from an earlier run of this bisection, \(repetitions)"
        }
        return "took \(seconds(measured.seconds)) measuring: \(Format.count(measured.probes, "probe"))"
            + (resumed > 0 ? " (\(resumed) more read back from an earlier run of this bisection)" : "") + ", \(repetitions)"
    }

    /// "2.6 s" under a minute, else as durations are written elsewhere ("7m43s").
    private static func seconds(_ value: Double) -> String {
        value < 60 ? Format.duration(value) : DurationText.format(value.rounded())
    }

    private static func describe(_ state: BisectState) -> String {
        "\(Terminal.safe(state.shortId)) \"\(Terminal.safe(Format.clip(state.subject, 60)))\""
    }

    /// "+10.4% [+7.9%, +12.8%]" for a measured change (as the comparison prints it), else the detail.
    private static func change(_ reading: SignalReading) -> String {
        // A journal is read back from a folder others may write to: nothing of it reaches the terminal raw.
        guard let change = reading.change, case .metric = reading.signal else { return Terminal.safe(reading.detail) }
        let interval =
            reading.lower.flatMap { lower in
                reading.upper.map { "[\(ComparisonReport.signedPercent(lower)), \(ComparisonReport.signedPercent($0))]" }
            } ?? ""
        return "\(ComparisonReport.signedPercent(change)) \(interval)".trimmingCharacters(in: .whitespaces)
    }

    private static func percent(_ ratio: Double) -> String { DecimalText.rounded(ratio * 100, places: ratio >= 0.01 ? 1 : 3) + "%" }
}
