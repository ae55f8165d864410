import ChatEvalCompare
import ChatEvalCore
import Foundation

/// A comparison for a terminal or a CI log: the verdict first, then what supports it, then the
/// detail (per-turn rows only with `verbose`).
public enum ComparisonReport {
    public static func render(_ comparison: Comparison, verbose: Bool) -> String {
        var lines: [String] = []
        lines.append("base      \(describe(comparison.base))")
        lines.append("head      \(describe(comparison.head))")
        let settings = comparison.settings
        let tests = comparison.suites.reduce(0) { $0 + $1.metrics.count }
        lines.append("gate      preset \(settings.preset): false-alarm rate \(percent(settings.familyErrorRate)) over \(tests) suite × metric tests (Holm), "
            + "\(Int((settings.confidence * 100).rounded()))% intervals")
        lines.append("")
        lines.append(headline(comparison))

        let regressions = comparison.metricRegressions
        let quality = comparison.quality
        if !regressions.isEmpty {
            lines.append("")
            lines.append("Regressions:")
            for (suite, change) in regressions { lines.append("  \(suite): \(sentence(change))") }
        }
        if !quality.newlyFailing.isEmpty {
            lines.append("")
            lines.append("Checks that passed on base and fail on head (\(quality.newlyFailing.count)):")
            lines += quality.newlyFailing.flatMap(checkLines)
        }
        if !quality.newlyFailingTurns.isEmpty {
            lines.append("")
            lines.append("Turns that answered on base and fail on head (\(quality.newlyFailingTurns.count)):")
            lines += quality.newlyFailingTurns.map { "  \($0.suite) / \($0.conversation) / turn \($0.turn): \(Terminal.safe($0.headOutcome))" }
        }
        let improvements = comparison.metricImprovements
        if !improvements.isEmpty {
            lines.append("")
            lines.append("Improvements:")
            for (suite, change) in improvements { lines.append("  \(suite): \(sentence(change))") }
        }
        if !quality.newlyPassing.isEmpty {
            lines.append("")
            lines.append("Checks that failed on base and pass on head (\(quality.newlyPassing.count)):")
            lines += quality.newlyPassing.flatMap(checkLines)
        }
        if !quality.flaky.isEmpty {
            lines.append("")
            lines.append("Flaky checks, not the same verdict on every replay of one side (not regressions) (\(quality.flaky.count)):")
            lines += quality.flaky.map { "  \(place($0)) \($0.check): base \($0.basePassed)/\($0.baseTotal), head \($0.headPassed)/\($0.headTotal) passed" }
        }
        if !quality.added.isEmpty || !quality.removed.isEmpty {
            lines.append("")
            lines.append("Checks only on one side: \(quality.added.count) added (\(quality.added.filter { $0.headPassed < $0.headTotal }.count) failing), \(quality.removed.count) removed")
        }
        let underpowered = comparison.underpowered
        if !underpowered.isEmpty {
            lines.append("")
            lines.append("Underpowered (too few or too noisy samples to decide at the threshold):")
            for (suite, change) in underpowered {
                let more = change.repetitionsNeeded.map { "; about \($0) repetitions per side would decide" } ?? ""
                lines.append("  \(suite): \(change.metric.name) \(interval(change)) — \(change.reason)\(more)")
            }
        }
        if !comparison.differences.isEmpty {
            lines.append("")
            lines.append("Differences between the sides:")
            for difference in comparison.differences {
                let kind = difference.isCommitDetermined ? "changed by the commits' project files" : "MISMATCH"
                lines.append("  \(difference.field): \(difference.base) → \(difference.head) (\(kind))")
            }
        }

        for suite in comparison.suites {
            lines.append("")
            lines.append("suite \(suite.name)")
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
        return lines.joined(separator: "\n")
    }

    /// One line: what the comparison concludes.
    public static func headline(_ comparison: Comparison) -> String {
        if !comparison.mismatches.isEmpty {
            return "NOT COMPARABLE: the sides were measured differently (\(comparison.mismatches.map(\.field).joined(separator: ", ")))."
        }
        let regressions = comparison.metricRegressions.count
        let failing = comparison.quality.newlyFailing.count + comparison.quality.newlyFailingTurns.count
        if regressions + failing > 0 {
            var parts: [String] = []
            if regressions > 0 { parts.append("\(regressions) metric\(regressions == 1 ? "" : "s") worse") }
            if failing > 0 { parts.append("\(failing) check\(failing == 1 ? "" : "s") or turn\(failing == 1 ? "" : "s") newly failing") }
            return "REGRESSION: " + parts.joined(separator: ", ") + "."
        }
        let underpowered = comparison.underpowered.count
        let improvements = comparison.metricImprovements.count + comparison.quality.newlyPassing.count
        var text = "No regression."
        if improvements > 0 { text += " \(improvements) improvement\(improvements == 1 ? "" : "s")." }
        if underpowered > 0 { text += " \(underpowered) metric\(underpowered == 1 ? "" : "s") underpowered (see below)." }
        return text
    }

    /// "TTFT +12.3% [+8.1%, +16.2%] (191 ms → 214 ms), p = 0.0004 adjusted"
    static func sentence(_ change: MetricChange) -> String {
        "\(change.metric.name) \(interval(change)) (\(Format.value(change.baseMedian, of: change.metric)) → \(Format.value(change.headMedian, of: change.metric)))"
    }

    static func interval(_ change: MetricChange) -> String {
        guard let estimate = change.change else { return "–" }
        return "\(signed(estimate, change)) [\(signed(change.changeLower, change)), \(signed(change.changeUpper, change))]"
    }

    private static func signed(_ value: Double?, _ change: MetricChange) -> String {
        guard let value else { return "?" }
        if value == .infinity { return "+∞" }
        if value == -.infinity { return "−∞" }
        if change.scale == "relative" { return String(format: "%+.1f%%", value * 100) }
        return String(format: "%+.3f", value)
    }

    private static func table(_ changes: [MetricChange], firstColumn: String, name: (MetricChange) -> String) -> TextTable {
        var table = TextTable([.init(firstColumn, .left), .init("base"), .init("head"), .init("change"), .init("interval", .left),
                               .init("n", .right), .init("verdict", .left)])
        for change in changes {
            let verdict = change.verdict == .underpowered ? "underpowered" + (change.repetitionsNeeded.map { " (~\($0) reps)" } ?? "") : change.verdict.rawValue
            let low = signed(change.changeLower, change), high = signed(change.changeUpper, change)
            table.add([name(change), Format.value(change.baseMedian, of: change.metric), Format.value(change.headMedian, of: change.metric),
                       change.change.map { _ in signed(change.change, change) } ?? "–", change.change == nil ? "" : "[\(low), \(high)]",
                       "\(change.baseCount)/\(change.headCount)", verdict])
        }
        return table
    }

    private static func checkLines(_ change: CheckChange) -> [String] {
        var lines = ["  \(place(change)) \(change.check): \(Terminal.safe(change.detail ?? ""))"]
        if let answer = change.answerExcerpt { lines.append("      answer: \(Terminal.safe(answer))") }
        return lines
    }

    private static func place(_ change: CheckChange) -> String {
        "\(Terminal.safe(change.suite)) / \(Terminal.safe(change.conversation)) / " + (change.turn.map { "turn \($0)" } ?? "conversation") + " / check \(change.position)"
    }

    private static func describe(_ side: ComparedSide) -> String {
        var text = side.shortCommit ?? "no commit"
        if side.dirty { text += " (dirty)" }
        if let subject = side.subject { text += " \"\(Terminal.safe(subject))\"" }
        let runs = side.runs.count == 1 ? "1 run" : "\(side.runs.count) runs"
        text += " — \(runs), \(side.repetitions) repetitions, \(side.model); \(side.machine)"
        if let source = side.sources.first { text += "\n          from \(source)" + (side.sources.count > 1 ? " and \(side.sources.count - 1) more" : "") }
        return text
    }

    private static func percent(_ value: Double) -> String {
        let text = String(format: "%.2f", value * 100)
        return (text.hasSuffix(".00") ? String(text.dropLast(3)) : text) + "%"
    }
}
