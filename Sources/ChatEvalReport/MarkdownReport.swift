import ChatEvalCompare
import ChatEvalCore
import ChatEvalHistory
import ChatEvalStore
import Foundation

/// GitHub-flavoured Markdown for a pull-request comment or a job summary: the verdict first,
/// then summary tables, then the detail inside `<details>`.
///
/// Kept under `budget` bytes (GitHub refuses a step summary over 1 MiB — "supports content up to
/// a size of 1024k" — and drops the whole of it) by summarising: the full report if it fits,
/// else without the per-turn detail and with at most 50 listed failures, else the summary
/// tables alone, else cut at a line with a note. Every text from a model, a user or a file is
/// escaped (`Markup.markdown`).
public enum MarkdownReport {
    /// GitHub's limit for one step's summary, less room for what other steps of the job add.
    public static let defaultBudget = 1_000_000

    enum Detail: CaseIterable { case full, summary, headline }

    /// A run; with `comparison` (`run --baseline`), the comparison comes first — its verdict is
    /// the job's — and the head's run follows, summarised alike.
    public static func render(runs records: [RunRecord], comparison: Comparison? = nil, budget: Int = defaultBudget) -> String {
        fitted(budget) { detail in
            (comparison.map { renderComparison($0, detail: detail) + "\n" } ?? "") + renderRuns(records, detail: detail)
        }
    }

    public static func render(comparison: Comparison, budget: Int = defaultBudget) -> String {
        fitted(budget) { renderComparison(comparison, detail: $0) }
    }

    public static func render(history: History, budget: Int = defaultBudget) -> String {
        fitted(budget) { renderHistory(history, detail: $0) }
    }

    private static func fitted(_ budget: Int, _ render: (Detail) -> String) -> String {
        let note = "\n\n_Report cut to fit the summary size limit; the result files hold everything._\n"
        var text = ""
        for detail in Detail.allCases {
            text = render(detail)
            if text.utf8.count <= budget { return text }
        }
        // Even the headline is too big: cut at the last line that fits.
        var kept = 0
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let size = line.utf8.count + 1
            if kept + size > budget - note.utf8.count { break }
            kept += size
            lines.append(line)
        }
        return lines.joined(separator: "\n") + note
    }

    // MARK: Runs

    private static func renderRuns(_ records: [RunRecord], detail: Detail) -> String {
        var out: [String] = []
        let failedGates = records.flatMap { record in
            record.suites.flatMap { suite in suite.gates.filter { !$0.passed }.map { (record, suite, $0) } }
        }
        let incomplete = records.filter { $0.status != .complete }
        let summary = RunSummary(records, labels: records.map { _ in nil })
        let verdict: String
        if !incomplete.isEmpty {
            verdict =
                "⚠️ **Incomplete**: \(incomplete.count) of \(records.count) run\(records.count == 1 ? "" : "s") did not finish; "
                + "the tables show what was measured."
        } else {
            verdict = "\(summary.passed ? "✅" : "❌") **\(summary.headline)**"
        }
        let commit =
            records.first?.git.map {
                ($0.shortCommit ?? "?") + ($0.isDirty ? " (dirty)" : "") + ($0.subject.map { " " + Markup.markdown($0) } ?? "")
            } ?? "no commit"
        out.append("## ChatEval run — \(Markup.markdown(commit))")
        out.append("")
        out.append(verdict)
        out.append("")
        out.append(
            "| suite | model | turns | failed | checks passed | pass rate | TTFT median | TTFT p95 | decode t/s | reuse turns ≥ 2 | gates |"
        )
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for record in records {
            let model = record.modelLabel
            for suite in record.suites {
                let measured = suite.conversations.filter(\.isMeasured)
                let turns = measured.flatMap(\.turns)
                let verdicts = suite.measuredVerdicts
                let metrics = suite.measuredTurns
                let ttft = Distribution(metrics.map(\.timeToFirstToken))
                let decode = Distribution(metrics.compactMap(\.decodeTokensPerSecond))
                let gates =
                    suite.gates.isEmpty
                    ? "–" : suite.gates.map { "\($0.passed ? "✅" : "❌") \(Markup.markdown($0.gate))" }.joined(separator: " ")
                out.append(
                    "| \(Markup.markdown(suite.name)) | \(Markup.markdown(model)) | \(turns.count) | "
                        + "\(turns.filter { $0.status != .answered }.count) | \(verdicts.filter(\.passed).count)/\(verdicts.count) | "
                        + "\(Format.percent(Verdict.passRate(verdicts))) | \(Format.duration(ttft?.median)) | "
                        + "\(Format.duration(ttft?.p95)) | \(Format.rate(decode?.median)) | "
                        + "\(Format.percent(suite.laterTurnsReuse)) | \(gates) |"
                )
            }
        }
        if records.count > 1 || ModelTable.isBenchmark(records) {
            out.append("")
            out.append("### Models")
            out.append("")
            out.append(ModelTable(records).markdown())
        }
        if !failedGates.isEmpty {
            out.append("")
            out.append("### Failed gates")
            out.append("")
            for (record, suite, gate) in failedGates {
                let model = records.count > 1 ? " (\(Markup.markdown(record.modelLabel)))" : ""
                out.append(
                    "- \(Markup.markdown(suite.name))\(model): \(Markup.markdown(gate.described)), found \(Markup.markdown(gate.found))"
                )
            }
        }
        let instructionFollowing = InstructionFollowingScores.sections(
            records, labels: records.map { records.count > 1 ? $0.modelLabel : nil })
        if !instructionFollowing.isEmpty {
            out.append("")
            out.append(InstructionFollowingReport.markdown(instructionFollowing))
        }
        guard detail != .headline else { return out.joined(separator: "\n") + "\n" }

        // Failures: turns the runtime could not answer, checks that failed (turn and conversation
        // checks, once over their repetitions), with the reason, the user message and the answer.
        let sideBySide = records.count > 1
        let failures = FailureRow.rows(records).map { row in
            let cells = [
                row.suite, row.conversation, row.turn, row.check, Markup.cut(row.reason, 200), Markup.cut(row.user, 100),
                Markup.cut(row.answer, 160),
            ]
            return "| " + ((row.model.map { [$0] } ?? []) + cells).map(Markup.markdown).joined(separator: " | ") + " |"
        }
        if !failures.isEmpty {
            let shown = detail == .full ? failures : Array(failures.prefix(50))
            out.append("")
            out.append("### Failures (\(failures.count))")
            out.append("")
            out.append((sideBySide ? "| model " : "") + "| suite | conversation | turn | check | reason | user | answer |")
            out.append((sideBySide ? "|---" : "") + "|---|---|---:|---|---|---|---|")
            out += shown
            if shown.count < failures.count {
                out.append("")
                out.append("_… and \(failures.count - shown.count) more in the result file._")
            }
        }
        guard detail == .full else { return out.joined(separator: "\n") + "\n" }

        for record in records {
            let model = record.modelLabel
            for suite in record.suites {
                out.append("")
                out.append("<details><summary>Per-turn detail: \(Markup.html(suite.name)) — \(Markup.html(model))</summary>")
                out.append("")
                out.append("| conversation | turn | TTFT | prefill t/s | decode t/s | reuse | checks | user | answer |")
                out.append("|---|---:|---:|---:|---:|---:|---|---|---|")
                for conversation in suite.conversations where conversation.isMeasured && conversation.repetition == 1 {
                    for turn in conversation.turns {
                        let metrics = turn.metrics
                        let checks = (turn.checks ?? []).map { $0.passed ? "✅" : "❌" }.joined()
                        let answer =
                            switch turn.status {
                            case .answered: Markup.markdown(Markup.cut(turn.answer ?? "", 120))
                            case .failed: "**failed**: " + Markup.markdown(turn.failure?.description ?? "")
                            case .skipped: "_skipped_"
                            }
                        out.append(
                            "| \(Markup.markdown(conversation.id)) | \(turn.index &+ 1) | \(Format.duration(metrics?.timeToFirstToken)) | "
                                + "\(Format.rate(metrics?.prefillTokensPerSecond)) | \(Format.rate(metrics?.decodeTokensPerSecond)) | "
                                + "\(Format.percent(metrics?.reuseRatio)) | \(checks) | "
                                + "\(Markup.markdown(Markup.cut(turn.user, 80))) | \(answer) |"
                        )
                    }
                }
                out.append("")
                out.append("</details>")
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: Comparison

    private static func renderComparison(_ comparison: Comparison, detail: Detail) -> String {
        var out: [String] = []
        let base = comparison.base, head = comparison.head
        out.append(
            "## ChatEval comparison — \(Markup.markdown(base.shortCommit ?? "base")) → \(Markup.markdown(head.shortCommit ?? "head"))")
        out.append("")
        let headline = ComparisonReport.headline(comparison)
        let mark = comparison.hasRegression || !comparison.mismatches.isEmpty ? "❌" : "✅"
        out.append("\(mark) **\(Markup.markdown(headline))**")
        out.append("")
        out.append(
            "Base \(base.runs.count) run(s), head \(head.runs.count) run(s); \(Markup.markdown(head.model)); "
                + "\(Markup.markdown(head.machine))."
        )
        out.append("")
        out.append("```")
        out += ComparisonReport.designLines(comparison)
        out.append("```")
        if !comparison.suites.isEmpty {
            out.append("")
            out.append(Markup.markdown(ComparisonReport.legend))
        }
        for suite in comparison.suites {
            out.append("")
            out.append("### \(Markup.markdown(suite.name))")
            out.append("")
            out.append("| metric | base | head | change | interval | n | verdict |")
            out.append("|---|---:|---:|---:|---|---:|---|")
            for change in suite.metrics {
                let icon =
                    switch change.verdict {
                    case .regression: "❌ "
                    case .improvement: "✅ "
                    default: ""
                    }
                out.append(
                    "| \(change.metric.name) | \(Format.value(change.baseLevel, of: change.metric)) | "
                        + "\(Format.value(change.headLevel, of: change.metric)) | "
                        + "\(Markup.markdown(ComparisonReport.interval(change).split(separator: " ").first.map(String.init) ?? "–")) | "
                        + "\(Markup.markdown(change.change == nil ? "" : ComparisonReport.interval(change))) | "
                        + "\(change.baseCount)/\(change.headCount) | \(icon)\(change.verdict.words) |"
                )
            }
        }
        let quality = comparison.quality
        for (title, checks) in [
            ("Checks that pass significantly less often on head", quality.regressions),
            ("Checks that changed, too few replays to tell (not regressions)", quality.undecided),
        ] where !checks.isEmpty && detail != .headline {
            let shown = detail == .full ? checks : Array(checks.prefix(50))
            out.append("")
            out.append("### \(title) (\(checks.count))")
            out.append("")
            out.append("| suite | conversation | turn | check | passed base → head | detail | answer |")
            out.append("|---|---|---:|---|---|---|---|")
            for change in shown {
                out.append(
                    "| \(Markup.markdown(change.suite)) | \(Markup.markdown(change.conversation)) | "
                        + "\(change.turn.map(String.init) ?? "–") | \(Markup.markdown(change.check)) | "
                        + "\(change.basePassed)/\(change.baseTotal) → \(change.headPassed)/\(change.headTotal) | "
                        + "\(Markup.markdown(Markup.cut(change.detail ?? "", 200))) | "
                        + "\(Markup.markdown(Markup.cut(change.answerExcerpt ?? "", 120))) |"
                )
            }
            if shown.count < checks.count {
                out.append("")
                out.append("_… and \(checks.count - shown.count) more._")
            }
        }
        for (title, turns) in [
            ("Turns answered significantly less often on head", quality.turnRegressions),
            ("Turns that now fail, too few replays to tell", quality.turnsUndecided),
        ] where !turns.isEmpty {
            out.append("")
            out.append("### \(title) (\(turns.count))")
            out.append("")
            for turn in turns.prefix(detail == .full ? Int.max : 50) {
                out.append(
                    "- \(Markup.markdown(turn.suite)) / \(Markup.markdown(turn.conversation)) / turn \(turn.turn): "
                        + "answered \(turn.baseAnswered)/\(turn.baseTotal) → "
                        + "\(turn.headAnswered)/\(turn.headTotal); \(Markup.markdown(turn.headOutcome))")
            }
        }
        if !comparison.differences.isEmpty {
            out.append("")
            out.append("### Differences between the sides")
            out.append("")
            for difference in comparison.differences {
                out.append(
                    "- \(Markup.markdown(difference.field)): \(Markup.markdown(difference.base)) → \(Markup.markdown(difference.head))"
                        + (difference.isCommitDetermined ? " (changed by the commits' project files)" : " (**mismatch**)"))
            }
        }
        guard detail == .full else { return out.joined(separator: "\n") + "\n" }
        for suite in comparison.suites where !suite.turns.isEmpty {
            out.append("")
            out.append("<details><summary>Per-turn changes: \(Markup.html(suite.name))</summary>")
            out.append("")
            out.append("| conversation | turn | metric | base | head | change | verdict |")
            out.append("|---|---:|---|---:|---:|---|---|")
            for turn in suite.turns {
                for change in turn.metrics {
                    out.append(
                        "| \(Markup.markdown(turn.conversation)) | \(turn.turn) | \(change.metric.name) | "
                            + "\(Format.value(change.baseLevel, of: change.metric)) | "
                            + "\(Format.value(change.headLevel, of: change.metric)) | "
                            + "\(Markup.markdown(ComparisonReport.interval(change))) | \(change.verdict.words) |"
                    )
                }
            }
            out.append("")
            out.append("</details>")
        }
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: History

    private static func renderHistory(_ history: History, detail: Detail) -> String {
        var out: [String] = []
        out.append("## ChatEval history — \(history.commits.count) commits")
        out.append("")
        out.append((history.regressions.isEmpty ? "✅ " : "❌ ") + "**\(Markup.markdown(HistoryReport.headline(history)))**")
        let steps = history.series.flatMap { series in series.steps.map { (series, $0) } }
        if !steps.isEmpty {
            out.append("")
            out.append("| | metric | change | suspect | subject | series |")
            out.append("|---|---|---|---|---|---|")
            for (series, step) in steps {
                let suspect = history.commit(at: step.suspectPosition)
                out.append(
                    "| \(step.isWorse ? "❌ worse" : "✅ better") | \(Markup.markdown(series.metric.label)) | "
                        + "\(Markup.markdown(HistoryReport.describe(step, metric: series.metric))) | "
                        + "`\(suspect?.shortId ?? String(step.suspect.prefix(7)))` | "
                        + "\(Markup.markdown(Markup.cut(suspect?.subject ?? "", 80))) | \(Markup.markdown(series.key.label)) |"
                )
            }
        }
        guard detail != .headline else { return out.joined(separator: "\n") + "\n" }
        let rowLimit = detail == .full ? Int.max : 30
        for series in history.series {
            out.append("")
            out.append("<details><summary>\(Markup.html(series.metric.label)) — \(Markup.html(series.key.label))</summary>")
            out.append("")
            out.append("| commit | median | spread | runs | step | subject |")
            out.append("|---|---:|---|---:|---|---|")
            let steps = Set(series.steps.map(\.suspectPosition))
            for point in series.points.reversed().prefix(rowLimit) {
                let commit = history.commits[point.position]
                out.append(
                    "| `\(commit.shortId)` | \(HistoryReport.value(point.median, series.metric)) | "
                        + "\(HistoryReport.value(point.lower, series.metric))–\(HistoryReport.value(point.upper, series.metric)) | "
                        + "\(point.runs) | "
                        + "\(steps.contains(point.position) ? "◀" : "") | \(Markup.markdown(Markup.cut(commit.subject, 80))) |")
            }
            if series.points.count > rowLimit {
                out.append("")
                out.append("_… \(series.points.count - rowLimit) older commits in `chateval history`._")
            }
            out.append("")
            out.append("</details>")
        }
        return out.joined(separator: "\n") + "\n"
    }
}
