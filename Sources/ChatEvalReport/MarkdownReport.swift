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

    // MARK: Blocks

    /// The report's lines as one text, ending with a line break.
    private static func document(_ lines: [String]) -> String { lines.joined(separator: "\n") + "\n" }

    /// A `### title` section: a blank line, the heading, a blank line, then `body`.
    private static func section(_ title: String, _ body: [String]) -> [String] { ["", "### \(title)", ""] + body }

    /// A block folded under `summary` (HTML, escaped by the caller): `body` between blank lines.
    private static func details(_ summary: String, _ body: [String]) -> [String] {
        ["", "<details><summary>\(summary)</summary>", ""] + body + ["", "</details>"]
    }

    /// The first `limit` of `rows`, and `more(left)` after a blank line when some were left out.
    private static func capped(_ rows: [String], _ limit: Int, more: (Int) -> String) -> [String] {
        rows.count <= limit ? rows : Array(rows.prefix(limit)) + ["", more(rows.count - limit)]
    }

    // MARK: Runs

    /// A run: the verdict and the suite table, the models, failed gates and instruction-following
    /// scores; unless `.headline`, the failures (at most 50 under `.summary`); under `.full` the
    /// per-turn detail.
    private static func renderRuns(_ records: [RunRecord], detail: Detail) -> String {
        var out = runHeadline(records) + suiteTable(records)
        if records.count > 1 || ModelTable.isBenchmark(records) {
            out += section("Models", [ModelTable(records).markdown()])
        }
        out += failedGates(records)
        let instructionFollowing = InstructionFollowingScores.sections(
            records, labels: records.map { records.count > 1 ? $0.modelLabel : nil })
        if !instructionFollowing.isEmpty {
            out += ["", InstructionFollowingReport.markdown(instructionFollowing)]
        }
        guard detail != .headline else { return document(out) }
        // Models and suite variants side by side, as the terminal and HTML reports set them.
        if let matrix = VariantMatrix.build(records, labels: records.map(\.modelLabel)) {
            out += ["", MatrixReport.markdown(matrix)]
        }
        out += failures(records, detail: detail)
        guard detail == .full else { return document(out) }
        for record in records {
            let bound = record.runtime.memory?.roofline.flatMap { roofline in record.machine.memoryBandwidth.map { (roofline, $0) } }
            for suite in record.suites { out += perTurnDetail(suite, model: record.modelLabel, bound: bound) }
        }
        return document(out)
    }

    /// The run's title (commit and subject) and its verdict: incomplete, passed or failed.
    private static func runHeadline(_ records: [RunRecord]) -> [String] {
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
        // Spelled out: as one expression of optionals and +, it took the type checker 2 s.
        var commit = "no commit"
        if let git = records.first?.git {
            let dirty = git.isDirty ? " (dirty)" : ""
            let subject = git.subject.map { " " + Markup.markdown($0) } ?? ""
            commit = (git.shortCommit ?? "?") + dirty + subject
        }
        return ["## ChatEval run — \(Markup.markdown(commit))", "", verdict, ""]
    }

    /// One row per suite of every run: turns, failures, checks, TTFT, decode rate, reuse, gates.
    private static func suiteTable(_ records: [RunRecord]) -> [String] {
        var out = [
            "| suite | model | turns | failed | checks passed | pass rate | TTFT median | TTFT p95 | decode t/s | "
                + "reuse turns ≥ 2 | gates |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
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
        return out
    }

    /// The gates that failed, with what they found; nothing when none did.
    private static func failedGates(_ records: [RunRecord]) -> [String] {
        let failed = records.flatMap { record in
            record.suites.flatMap { suite in suite.gates.filter { !$0.passed }.map { (record, suite, $0) } }
        }
        guard !failed.isEmpty else { return [] }
        return section(
            "Failed gates",
            failed.map { record, suite, gate in
                let model = records.count > 1 ? " (\(Markup.markdown(record.modelLabel)))" : ""
                return "- \(Markup.markdown(suite.name))\(model): \(Markup.markdown(gate.described)), found \(Markup.markdown(gate.found))"
            })
    }

    /// Turns the runtime could not answer, checks that failed (turn and conversation checks,
    /// once over their repetitions), with the reason, the user message and the answer; at most
    /// 50 rows unless `.full`. Nothing when nothing failed.
    private static func failures(_ records: [RunRecord], detail: Detail) -> [String] {
        let sideBySide = records.count > 1
        let failures = FailureRow.rows(records).map { row in
            let cells = [
                row.suite, row.conversation, row.turn, row.check, Markup.cut(row.reason, 200), Markup.cut(row.user, 100),
                Markup.cut(row.answer, 160),
            ]
            return "| " + ((row.model.map { [$0] } ?? []) + cells).map(Markup.markdown).joined(separator: " | ") + " |"
        }
        guard !failures.isEmpty else { return [] }
        let header = [
            (sideBySide ? "| model " : "") + "| suite | conversation | turn | check | reason | user | answer |",
            (sideBySide ? "|---" : "") + "|---|---|---:|---|---|---|---|",
        ]
        return section(
            "Failures (\(failures.count))",
            header + capped(failures, detail == .full ? Int.max : 50) { "_… and \($0) more in the result file._" })
    }

    /// A turn's decode rate over the bound at its mean decode depth.
    static func share(_ metrics: TurnMetrics?, _ bound: (roofline: DecodeRoofline, bandwidth: Double)) -> Double? {
        guard let metrics else { return nil }
        let depth = DecodeRoofline.meanDepth(promptTokens: metrics.promptTokens, generatedTokens: metrics.generatedTokens)
        return bound.roofline.share(decodeTokensPerSecond: metrics.decodeTokensPerSecond, depth: depth, bandwidth: bound.bandwidth)
    }

    /// A suite's turns of the first repetition: timings, reuse, checks, the user message and the
    /// answer; with `bound` (the run's decode roofline and the machine's probed bandwidth), each
    /// turn's decode as a share of the memory-bandwidth bound at its mean decode depth.
    private static func perTurnDetail(_ suite: SuiteRecord, model: String, bound: (DecodeRoofline, Double)?) -> [String] {
        var rows = [
            "| conversation | turn | TTFT | prefill t/s | decode t/s | \(bound == nil ? "" : "decode, share of bound | ")"
                + "reuse | checks | user | answer |",
            "|---|---:|---:|---:|---:|\(bound == nil ? "" : "---:|")---:|---|---|---|",
        ]
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
                rows.append(
                    "| \(Markup.markdown(conversation.id)) | \(turn.index &+ 1) | \(Format.duration(metrics?.timeToFirstToken)) | "
                        + "\(Format.rate(metrics?.prefillTokensPerSecond)) | \(Format.rate(metrics?.decodeTokensPerSecond)) | "
                        + (bound.map { "\(Format.percent(share(metrics, $0))) | " } ?? "")
                        + "\(Format.percent(metrics?.reuseRatio)) | \(checks) | "
                        + "\(Markup.markdown(Markup.cut(turn.user, 80))) | \(answer) |"
                )
            }
        }
        return details("Per-turn detail: \(Markup.html(suite.name)) — \(Markup.html(model))", rows)
    }

    // MARK: Comparison

    /// A comparison: the verdict, the design, each suite's metrics; unless `.headline`, the
    /// checks that changed (at most 50 a list under `.summary`); the turns that changed and the
    /// differences between the sides; under `.full` the per-turn changes.
    private static func renderComparison(_ comparison: Comparison, detail: Detail) -> String {
        var out = comparisonHeadline(comparison)
        for suite in comparison.suites {
            // The suite in one line first, then its metrics.
            out += section(
                Markup.markdown(suite.name), (suite.hpt.map { ["HPT: \(Markup.markdown($0.sentence))", ""] } ?? []) + metricRows(suite))
        }
        let quality = comparison.quality
        let limit = detail == .full ? Int.max : 50
        for (title, checks) in [
            ("Checks that pass significantly less often on head", quality.regressions),
            ("Checks that changed, too few replays to tell (not regressions)", quality.undecided),
        ] where !checks.isEmpty && detail != .headline {
            out += section("\(title) (\(checks.count))", checkRows(checks, limit: limit))
        }
        for (title, turns) in [
            ("Turns answered significantly less often on head", quality.turnRegressions),
            ("Turns that now fail, too few replays to tell", quality.turnsUndecided),
        ] where !turns.isEmpty {
            out += section(
                "\(title) (\(turns.count))",
                turns.prefix(limit).map { turn in
                    "- \(Markup.markdown(turn.suite)) / \(Markup.markdown(turn.conversation)) / turn \(turn.turn): "
                        + "answered \(turn.baseAnswered)/\(turn.baseTotal) → "
                        + "\(turn.headAnswered)/\(turn.headTotal); \(Markup.markdown(turn.headOutcome))"
                })
        }
        if !comparison.differences.isEmpty {
            out += section(
                "Differences between the sides",
                comparison.differences.map { difference in
                    "- \(Markup.markdown(difference.field)): \(Markup.markdown(difference.base)) → \(Markup.markdown(difference.head))"
                        + (difference.isCommitDetermined ? " (changed by the commits' project files)" : " (**mismatch**)")
                })
        }
        guard detail == .full else { return document(out) }
        for suite in comparison.suites where !suite.turns.isEmpty {
            out += details("Per-turn changes: \(Markup.html(suite.name))", turnChangeRows(suite))
        }
        return document(out)
    }

    /// The comparison's title (both commits), its verdict, what was compared and how (the design
    /// lines), and the legend when there are suites.
    private static func comparisonHeadline(_ comparison: Comparison) -> [String] {
        let base = comparison.base, head = comparison.head
        let mark = comparison.failingReasons.isEmpty ? "✅" : "❌"
        var out = [
            "## ChatEval comparison — \(Markup.markdown(base.shortCommit ?? "base")) → \(Markup.markdown(head.shortCommit ?? "head"))", "",
            "\(mark) **\(Markup.markdown(ComparisonReport.headline(comparison)))**", "",
        ]
        // The whole comparison in one line, HPT-style, right after the verdict.
        if let hpt = comparison.hpt { out += ["HPT: \(Markup.markdown(hpt.sentence))", ""] }
        out += [
            "Base \(base.runs.count) run(s), head \(head.runs.count) run(s); \(Markup.markdown(head.model)); "
                + "\(Markup.markdown(head.machine)).",
            "", "```",
        ]
        out += ComparisonReport.designLines(comparison)
        out.append("```")
        if !comparison.suites.isEmpty { out += ["", Markup.markdown(ComparisonReport.legend)] }
        return out
    }

    /// A suite's metrics: both levels, the change and its interval, the replays and the verdict.
    private static func metricRows(_ suite: SuiteComparison) -> [String] {
        ["| metric | base | head | change | interval | n | verdict |", "|---|---:|---:|---:|---|---:|---|"]
            + suite.metrics.map { change in
                let icon =
                    switch change.verdict {
                    case .regression: "❌ "
                    case .improvement: "✅ "
                    // Flaky and undecided are counts' verdicts, never a metric's: no icon either.
                    case .unchanged, .notWorse, .underpowered, .notMeasured, .notGated, .accepted, .flaky, .undecided: ""
                    }
                return "| \(change.metric.name) | \(Format.value(change.baseLevel, of: change.metric)) | "
                    + "\(Format.value(change.headLevel, of: change.metric)) | "
                    + "\(Markup.markdown(ComparisonReport.interval(change).split(separator: " ").first.map(String.init) ?? "–")) | "
                    + "\(Markup.markdown(change.change == nil ? "" : ComparisonReport.interval(change))) | "
                    + "\(change.baseCount)/\(change.headCount) | \(icon)\(change.verdict.words) |"
            }
    }

    /// Checks that changed: where, their pass counts on each side, the detail and the answer; the
    /// first `limit`, with a count of the rest.
    private static func checkRows(_ checks: [CheckChange], limit: Int) -> [String] {
        let rows = checks.map { change in
            "| \(Markup.markdown(change.suite)) | \(Markup.markdown(change.conversation)) | "
                + "\(change.turn.map(String.init) ?? "–") | \(Markup.markdown(change.check)) | "
                + "\(change.basePassed)/\(change.baseTotal) → \(change.headPassed)/\(change.headTotal) | "
                + "\(Markup.markdown(Markup.cut(change.detail ?? "", 200))) | "
                + "\(Markup.markdown(Markup.cut(change.answerExcerpt ?? "", 120))) |"
        }
        return ["| suite | conversation | turn | check | passed base → head | detail | answer |", "|---|---|---:|---|---|---|---|"]
            + capped(rows, limit) { "_… and \($0) more._" }
    }

    /// A suite's per-turn metric changes (never gated).
    private static func turnChangeRows(_ suite: SuiteComparison) -> [String] {
        var rows = ["| conversation | turn | metric | base | head | change | verdict |", "|---|---:|---|---:|---:|---|---|"]
        for turn in suite.turns {
            for change in turn.metrics {
                rows.append(
                    "| \(Markup.markdown(turn.conversation)) | \(turn.turn) | \(change.metric.name) | "
                        + "\(Format.value(change.baseLevel, of: change.metric)) | "
                        + "\(Format.value(change.headLevel, of: change.metric)) | "
                        + "\(Markup.markdown(ComparisonReport.interval(change))) | \(change.verdict.words) |"
                )
            }
        }
        return rows
    }

    // MARK: History

    /// A history: the verdict and its steps (metric, change, suspect commit); unless `.headline`,
    /// each series' commits (the 30 latest under `.summary`).
    private static func renderHistory(_ history: History, detail: Detail) -> String {
        var out = [
            "## ChatEval history — \(history.commits.count) commits", "",
            (history.regressions.isEmpty ? "✅ " : "❌ ") + "**\(Markup.markdown(HistoryReport.headline(history)))**",
        ]
        let steps = history.series.flatMap { series in series.steps.map { (series, $0) } }
        if !steps.isEmpty {
            out += ["", "| | metric | change | suspect | subject | series |", "|---|---|---|---|---|---|"]
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
        guard detail != .headline else { return document(out) }
        let rowLimit = detail == .full ? Int.max : 30
        for series in history.series {
            out += details(
                "\(Markup.html(series.metric.label)) — \(Markup.html(series.key.label))", seriesRows(series, of: history, limit: rowLimit))
        }
        return document(out)
    }

    /// A series' commits, latest first: the median, spread and runs at each, and where a step
    /// is suspected; the first `limit`, with a count of the older ones.
    private static func seriesRows(_ series: HistorySeries, of history: History, limit: Int) -> [String] {
        var rows = ["| commit | median | spread | runs | step | subject |", "|---|---:|---|---:|---|---|"]
        let steps = Set(series.steps.map(\.suspectPosition))
        for point in series.points.reversed().prefix(limit) {
            let commit = history.commits[point.position]
            rows.append(
                "| `\(commit.shortId)` | \(HistoryReport.value(point.median, series.metric)) | "
                    + "\(HistoryReport.value(point.lower, series.metric))–\(HistoryReport.value(point.upper, series.metric)) | "
                    + "\(point.runs) | "
                    + "\(steps.contains(point.position) ? "◀" : "") | \(Markup.markdown(Markup.cut(commit.subject, 80))) |")
        }
        if series.points.count > limit {
            rows += ["", "_… \(series.points.count - limit) older commits in `chateval history`._"]
        }
        return rows
    }
}
