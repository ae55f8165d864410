import ChatEvalCore
import ChatEvalHistory
import Foundation

/// A history for a terminal or a CI log: the steps first (each with its suspect commit), then a
/// table per series, newest commit first, with runs of commits without results folded into one
/// line.
public enum HistoryReport {
    public static func render(_ history: History) -> String {
        var lines: [String] = []
        let first = history.commits.first, last = history.commits.last
        lines.append(
            "history   \(history.commits.count) commits (first-parent) from \(first?.shortId ?? "–") to \(last?.shortId ?? "–"); "
                + "metrics \(history.metrics.joined(separator: ", "))")
        lines.append(
            "steps     \(history.detection.method), α = \(history.detection.alpha), "
                + "at least \(history.detection.minimumSegment) commits with results on each side"
        )
        var skipped: [String] = []
        if history.skippedDirtyRuns > 0 { skipped.append("\(history.skippedDirtyRuns) run(s) of a dirty working tree") }
        if history.skippedIncompleteRuns > 0 { skipped.append("\(history.skippedIncompleteRuns) incomplete run(s)") }
        if !skipped.isEmpty { lines.append("left out  " + skipped.joined(separator: ", ")) }
        lines.append("")
        lines.append(headline(history))
        let steps = history.series.flatMap { series in series.steps.map { (series, $0) } }
        if !steps.isEmpty {
            lines.append("")
            lines.append("Steps:")
            for (series, step) in steps {
                lines.append("  \(stepLine(step, series: series, history: history))")
                if let suspects = suspectsLine(step, history: history) {
                    lines.append(Format.wrap("    " + suspects, width: 100, hanging: "      "))
                }
            }
        }
        for series in history.series {
            lines.append("")
            lines.append("\(series.metric.label) — \(Terminal.safe(series.key.label))")
            lines.append(table(series, history: history).render(indent: "  "))
        }
        if history.series.isEmpty {
            lines.append("")
            lines.append("No complete run of a clean working tree is recorded for these commits (reports folder and git notes).")
        }
        return lines.joined(separator: "\n")
    }

    /// One line: what the history shows.
    public static func headline(_ history: History) -> String {
        let worse = history.regressions.count
        let all = history.series.reduce(0) { $0 + $1.steps.count }
        let measured = Set(history.series.flatMap { $0.points.map(\.position) }).count
        if all == 0 { return "No step in \(history.series.count) series over \(measured) commits with results." }
        return "\(all) step\(all == 1 ? "" : "s") in \(history.series.count) series over \(measured) commits with results"
            + (worse > 0 ? ", \(worse) for the worse." : ", none for the worse.")
    }

    /// "▲ TTFT +20.1% [+15.2%, +24.8%] (200 ms → 240 ms) at 3f2a9c1 "Bump llama.cpp" — smoke"
    static func stepLine(_ step: HistoryStep, series: HistorySeries, history: History) -> String {
        let suspect = history.commit(at: step.suspectPosition)
        var text =
            "\(step.isWorse ? "WORSE" : "better") \(series.metric.label) \(describe(step, metric: series.metric)) at "
            + "\(suspect?.shortId ?? String(step.suspect.prefix(7)))"
        if let subject = suspect?.subject { text += " \"\(Terminal.safe(subject))\"" }
        if step.firstMeasured != step.suspect, let measured = history.commit(at: step.firstMeasuredPosition) {
            text += " (or a commit up to \(measured.shortId): none between has results)"
        }
        return text + " — \(Terminal.safe(series.key.suite))"
    }

    /// Which commits of the step's range changed the runs' inputs: "inputs changed by 3f2a9c1
    /// (suites/smoke.yaml); 2 commits changed none", or that none did and the cause lies outside
    /// the repository. Nil when the suspects were not looked up.
    static func suspectsLine(_ step: HistoryStep, history: History) -> String? {
        guard let suspects = step.suspects, !suspects.isEmpty else { return nil }
        func short(_ id: String) -> String { history.commits.first { $0.id == id }?.shortId ?? String(id.prefix(7)) }
        let changing = step.inputSuspects
        let others = suspects.count - changing.count
        guard !changing.isEmpty else {
            return "no commit in the range changed a suite or the project file: the cause lies outside the repository "
                + "(the engine build, the machine, the model file)"
        }
        let named = changing.map {
            "\(short($0.commit)) (\($0.changedInputs.prefix(3).joined(separator: ", "))\($0.changedInputs.count > 3 ? ", …" : ""))"
        }
        return "inputs changed by " + named.joined(separator: ", ")
            + (others > 0
                ? "; \(others) commit\(others == 1 ? "" : "s") in the range changed none and cannot have caused it through the suites" : "")
    }

    /// "+20.1% [+15.2%, +24.8%] (200 ms → 240 ms)"
    public static func describe(_ step: HistoryStep, metric: HistoryMetric) -> String {
        let levels = "(\(value(step.before, metric)) → \(value(step.after, metric)))"
        guard let change = step.change else { return levels }
        return "\(percent(change)) [\(percent(step.changeLower)), \(percent(step.changeUpper))] \(levels)"
    }

    static func value(_ value: Double?, _ metric: HistoryMetric) -> String {
        switch metric {
        case .metric(let metric): Format.value(value, of: metric)
        case .passRate: Format.percent(value)
        }
    }

    static func percent(_ value: Double?) -> String {
        guard let value else { return "?" }
        if value == .infinity { return "+∞" }
        if value == -.infinity { return "−∞" }
        return String(format: "%+.1f%%", value * 100)
    }

    /// Newest first; consecutive commits without results folded into one row.
    private static func table(_ series: HistorySeries, history: History) -> TextTable {
        var table = TextTable([
            .init("commit", .left), .init("median"), .init("spread", .left), .init("runs"), .init("n"), .init("", .left),
            .init("subject", .left),
        ])
        let points = Dictionary(series.points.map { ($0.position, $0) }, uniquingKeysWith: { first, _ in first })
        let suspects = Dictionary(series.steps.map { ($0.suspectPosition, $0) }, uniquingKeysWith: { first, _ in first })
        var gap = 0
        func flushGap() {
            if gap > 0 { table.add(["·", "", "", "", "", "", "\(gap) commit\(gap == 1 ? "" : "s") without results"]) }
            gap = 0
        }
        for position in history.commits.indices.reversed() {
            let commit = history.commits[position]
            let marker = suspects[position].map { $0.isWorse ? "◀ step (worse)" : "◀ step (better)" } ?? ""
            guard let point = points[position] else {
                if !marker.isEmpty {
                    flushGap()
                    table.add([commit.shortId, "–", "", "", "", marker, Terminal.safe(Format.excerpt(commit.subject, limit: 50))])
                } else {
                    gap += 1
                }
                continue
            }
            flushGap()
            table.add([
                commit.shortId, value(point.median, series.metric),
                "\(value(point.lower, series.metric))–\(value(point.upper, series.metric))",
                String(point.runs), String(point.samples), marker, Terminal.safe(Format.excerpt(commit.subject, limit: 50)),
            ])
        }
        flushGap()
        return table
    }
}
