import ChatEvalCompare
import ChatEvalCore
import ChatEvalHistory
import ChatEvalStore
import Foundation

/// One self-contained HTML page: inline styles and inline SVG charts, no script, no external
/// style, font or image (a Content-Security-Policy says so to the browser too). Every model
/// answer, user message, suite name and commit subject is escaped (`Markup.html`): an answer
/// holding `<script>` or `</svg>` shows as that text.
///
/// Size: answers are shortened so that the page stays under about 2 MB (`answerBudget` bytes of
/// answers and user messages in all, at least 200 characters each); the result file keeps them whole.
public enum HTMLReport {
    public static let answerBudget = 1_200_000

    // MARK: Runs

    /// A run; with `comparison` (`run --baseline`), the comparison follows on the same page.
    public static func render(runs records: [RunRecord], comparison: Comparison? = nil) -> String {
        let commit = records.first?.git
        // With a comparison (run --baseline), its verdict first: it is the job's.
        return page(title: "ChatEval run \(commit?.shortCommit ?? "")", body: (comparison.map(comparisonBody) ?? "") + runsBody(records))
    }

    /// A run's page body: the verdict and suite table, instruction-following scores, the variant
    /// matrix, the models, the failures, then per suite its charts and turn tables; answers
    /// shortened to keep the page near its size (`answerBudget`).
    private static func runsBody(_ records: [RunRecord]) -> String {
        var body = runHeader(records) + suiteTable(records)
        // Before the matrix, which has a row per turn: the scores and the survival chart stay near the top.
        body += InstructionFollowingReport.html(InstructionFollowingScores.sections(records, labels: records.map(\.modelLabel)))
        if let matrix = VariantMatrix.build(records, labels: records.map(\.modelLabel)) { body += MatrixReport.html(matrix) }
        if records.count > 1 || ModelTable.isBenchmark(records) { body += ModelTable(records).html() }
        body += failuresSection(records)

        let perText = textLimit(records)
        // Charts per suite, models side by side; positions are (conversation, turn) of repetition 1.
        let suiteNames = records.flatMap { $0.suites.map(\.name) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for name in suiteNames {
            let sides = records.compactMap { record in record.suites.first { $0.name == name }.map { (record, $0) } }
            guard !sides.isEmpty else { continue }
            body += suiteCharts(name, sides)
            // One scale for the suite's TTFT bars, every model's: its longest measured TTFT.
            let ttfts: [Double] = sides.flatMap { side -> [Double] in
                side.1.conversations.filter(\.isMeasured).flatMap { $0.turns.compactMap(\.metrics?.timeToFirstToken) }
            }
            let scale = ttfts.filter { $0.isFinite && $0 > 0 }.max()
            for (record, suite) in sides { body += turnTable(suite, model: record.modelLabel, perText: perText, scale: scale) }
        }
        if perText != Int.max {
            body +=
                "<p class=\"note\">Answers and messages are shortened to \(perText) characters to keep this page small; "
                + "the result file holds them whole.</p>"
        }
        body +=
            "<p class=\"note\">"
            + records.map {
                "run \(Markup.html($0.runId)): \(Markup.html($0.modelLabel)) (\(Markup.html($0.runtime.engine)) "
                    + "\(Markup.html($0.runtime.build))) on \(Markup.html($0.machine.performanceClass))"
            }
            .joined(separator: "<br>") + "</p>"
        return body
    }

    /// The run's title (commit and subject) and its verdict.
    private static func runHeader(_ records: [RunRecord]) -> String {
        let commit = records.first?.git
        let summary = RunSummary(records, labels: records.map { _ in nil })
        return "<h1>ChatEval run — "
            + "\(Markup.html(commit?.shortCommit ?? "no commit"))\(commit?.subject.map { " " + Markup.html($0) } ?? "")</h1>"
            + verdict(summary.headline, good: summary.passed)
    }

    /// One row per suite of every run: turns, failures, checks, TTFT, decode rate, reuse, gates.
    private static func suiteTable(_ records: [RunRecord]) -> String {
        var table =
            "<table><tr><th>suite</th><th>model</th><th>turns</th><th>failed</th><th>checks passed</th><th>TTFT median</th>"
            + "<th>TTFT p95</th><th>decode t/s</th><th>reuse turns ≥ 2</th><th>gates</th></tr>"
        for record in records {
            for suite in record.suites {
                let turns = suite.conversations.filter(\.isMeasured).flatMap(\.turns)
                let metrics = suite.measuredTurns
                let verdicts = suite.measuredVerdicts
                let ttft = Distribution(metrics.map(\.timeToFirstToken))
                let gates = suite.gates.map { "\($0.passed ? "✓" : "✗") \(Markup.html($0.described)): \(Markup.html($0.found))" }
                table +=
                    "<tr><td>\(Markup.html(suite.name))</td><td>\(Markup.html(record.modelLabel))</td><td>\(turns.count)</td>"
                    + "<td>\(turns.filter { $0.status != .answered }.count)</td>"
                    + "<td>\(verdicts.filter(\.passed).count)/\(verdicts.count)</td>"
                    + "<td>\(Format.duration(ttft?.median))</td><td>\(Format.duration(ttft?.p95))</td>"
                    + "<td>\(Format.rate(Distribution(metrics.compactMap(\.decodeTokensPerSecond))?.median))</td>"
                    + "<td>\(Format.percent(suite.laterTurnsReuse))</td>"
                    + "<td>\(gates.joined(separator: "<br>"))</td></tr>"
            }
        }
        return table + "</table>"
    }

    /// The characters each answer and user message may keep: all of them when every text of the
    /// runs fits in `answerBudget`, else an equal share of it (at least 200).
    private static func textLimit(_ records: [RunRecord]) -> Int {
        let totalText = records.reduce(0) { total, record in
            total
                + record.suites.reduce(0) {
                    $0 + $1.conversations.reduce(0) { $0 + $1.turns.reduce(0) { $0 + ($1.answer?.utf8.count ?? 0) + $1.user.utf8.count } }
                }
        }
        let turnCount = max(1, records.reduce(0) { $0 + $1.suites.reduce(0) { $0 + $1.conversations.reduce(0) { $0 + $1.turns.count } } })
        return totalText <= answerBudget ? Int.max : max(200, answerBudget / (2 * turnCount))
    }

    /// A suite's heading and its four per-turn charts (TTFT, decode and prefill rates, reuse), one
    /// line per model in `sides`; each point the turn's median over the measured repetitions.
    private static func suiteCharts(_ name: String, _ sides: [(RunRecord, SuiteRecord)]) -> String {
        guard let first = sides.first else { return "" }
        let positions = first.1.conversations.filter { $0.isMeasured && $0.repetition == 1 }.flatMap { conversation in
            conversation.turns.map { (conversation.id, $0.index) }
        }
        // One series per model, broken between conversations: turns are labelled by number, conversations under them.
        let labels = positions.map { "#\($0.1 + 1)" }
        let groups = positions.enumerated().compactMap { index, position in
            index == 0 || positions[index - 1].0 != position.0 ? (label: position.0, start: index) : nil
        }
        // Each point the median over the measured repetitions, as the tables give it.
        func line(_ metric: (TurnMetrics) -> Double?) -> [SVGChart.Line] {
            sides.map { record, suite in
                var values: [String: [Double]] = [:]
                for conversation in suite.conversations where conversation.isMeasured {
                    for turn in conversation.turns {
                        if let value = turn.metrics.flatMap(metric) {
                            values["\(conversation.id)\u{0}\(turn.index)", default: []].append(value)
                        }
                    }
                }
                return SVGChart.Line(
                    name: record.modelLabel, values: positions.map { values["\($0.0)\u{0}\($0.1)"].flatMap(Distribution.init)?.median })
            }
        }
        let repetitions = sides.map { Set($0.1.conversations.filter(\.isMeasured).map(\.repetition)).count }.max() ?? 1
        var body = "<h2>Suite \(Markup.html(name))</h2><div class=\"charts\">"
        body += SVGChart.lines(
            title: "TTFT per turn", unit: "ms", lines: line { $0.timeToFirstToken * 1000 }, xLabels: labels, groups: groups,
            fromZero: true
        ) { String(format: "%.0f", $0) }
        body += SVGChart.lines(
            title: "Decode tokens/s per turn", unit: "tokens/s", lines: line(\.decodeTokensPerSecond), xLabels: labels, groups: groups,
            fromZero: true
        ) { String(format: "%.0f", $0) }
        body += SVGChart.lines(
            title: "Prefill tokens/s per turn", unit: "tokens/s", lines: line(\.prefillTokensPerSecond), xLabels: labels,
            groups: groups,
            fromZero: true
        ) { String(format: "%.0f", $0) }
        body += SVGChart.lines(
            title: "Cache reuse per turn", unit: "% of the prompt", lines: line { $0.reuseRatio.map { $0 * 100 } }, xLabels: labels,
            groups: groups, bounds: 0...100, fromZero: true
        ) { String(format: "%.0f", $0) }
        body += "</div>"
        if repetitions > 1 {
            body += "<p class=\"note\">Each point is the turn's median over \(repetitions) repetitions, as in the tables.</p>"
        }
        return body
    }

    /// One model's turns of a suite, every measured repetition: timings (with the first token's
    /// parts), reuse, checks, the user message and the answer cut to `perText` characters; open
    /// when it has at most 100 turns.
    private static func turnTable(_ suite: SuiteRecord, model: String, perText: Int, scale: Double?) -> String {
        let turnCount = suite.conversations.reduce(0) { $0 + $1.turns.count }
        var body = "<details\(turnCount <= 100 ? " open" : "")><summary>Turns — \(Markup.html(model))</summary>"
        // The bars' axis: every bar of the suite (each model's table) is drawn to the same scale.
        let axis = scale.map { "<br><span class=\"note\">bar: 0 to \(Markup.html(Format.duration($0))) at full width</span>" } ?? ""
        body +=
            "<table class=\"turns\"><tr><th>conversation</th><th>turn</th><th>TTFT\(axis)</th><th>prefill t/s</th>"
            + "<th>decode t/s</th><th>reuse</th><th>checks</th><th>user</th><th>answer</th></tr>"
        for conversation in suite.conversations where conversation.isMeasured {
            for turn in conversation.turns {
                let metrics = turn.metrics
                let checks = (turn.checks ?? []).map {
                    "<span class=\"\($0.passed ? "pass" : "fail")\" "
                        + "title=\"\(Markup.html($0.detail))\">\($0.passed ? "✓" : "✗") \(Markup.html($0.check))</span>"
                }
                .joined(separator: "<br>")
                let answer: String =
                    switch turn.status {
                    case .answered: "<div class=\"text\">\(Markup.html(Markup.cut(turn.answer ?? "", perText)))</div>"
                    case .failed: "<span class=\"fail\">failed: \(Markup.html(turn.failure?.description ?? ""))</span>"
                    case .skipped: "<em>skipped: \(Markup.html(turn.skipReason ?? ""))</em>"
                    }
                let repetition = conversation.repetition > 1 ? " (rep. \(conversation.repetition))" : ""
                body +=
                    "<tr><td>\(Markup.html(conversation.id))\(repetition)</td><td>\(turn.index + 1)</td>"
                    + "<td>\(Format.duration(metrics?.timeToFirstToken))\(metrics.map { firstTokenBar($0, scale: scale) } ?? "")</td>"
                    + "<td>\(Format.rate(metrics?.prefillTokensPerSecond))</td>"
                    + "<td>\(Format.rate(metrics?.decodeTokensPerSecond))</td><td>\(Format.percent(metrics?.reuseRatio))</td>"
                    + "<td>\(checks)</td><td><div class=\"text\">\(Markup.html(Markup.cut(turn.user, perText)))</div></td>"
                    + "<td>\(answer)</td></tr>"
            }
        }
        return body + "</table></details>"
    }

    /// Turns the runtime could not answer and checks that failed (turn and conversation checks,
    /// once over their repetitions): why, the user message and the answer, in the open — not only
    /// in a tooltip. Empty when nothing failed.
    private static func failuresSection(_ records: [RunRecord]) -> String {
        let rows = FailureRow.rows(records)
        guard !rows.isEmpty else { return "" }
        let sideBySide = records.count > 1
        var html =
            "<h2 id=\"failures\">Failures (\(rows.count))</h2><table class=\"failures\"><tr>\(sideBySide ? "<th>model</th>" : "")"
            + "<th>suite</th><th>conversation</th><th>turn</th><th>check</th><th>reason</th><th>user</th><th>answer</th></tr>"
        for row in rows.prefix(maximumFailureRows) {
            let cells = [row.suite, row.conversation, row.turn].map { "<td>\(Markup.html($0))</td>" }.joined()
            html +=
                "<tr>\(row.model.map { "<td>\(Markup.html($0))</td>" } ?? "")\(cells)"
                + "<td class=\"fail\">\(row.echoed ? "⚠" : "✗") \(Markup.html(row.check))</td>"
                + "<td><div class=\"text\">\(Markup.html(Markup.cut(row.reason, 1_000)))</div></td>"
                + "<td><div class=\"text\">\(Markup.html(Markup.cut(row.user, 2_000)))</div></td>"
                + "<td><div class=\"text\">\(Markup.html(Markup.cut(row.answer, 2_000)))</div></td></tr>"
        }
        html += "</table>"
        if rows.count > maximumFailureRows {
            html += "<p class=\"note\">… and \(rows.count - maximumFailureRows) more failures in the result file.</p>"
        }
        return html
    }

    /// Most rows of the failures table (each at most ~5 kB): the page stays small for a huge run.
    static let maximumFailureRows = 200

    // MARK: Comparison

    public static func render(comparison: Comparison) -> String {
        page(title: "ChatEval comparison", body: comparisonBody(comparison))
    }

    /// A comparison's page body: the verdict, both sides, the design, per suite its change chart
    /// and metric table, the legend, the checks and turns that changed, the differences between
    /// the sides.
    private static func comparisonBody(_ comparison: Comparison) -> String {
        var body =
            "<h1>ChatEval comparison — "
            + "\(Markup.html(comparison.base.shortCommit ?? "base")) → \(Markup.html(comparison.head.shortCommit ?? "head"))</h1>"
        body += verdict(ComparisonReport.headline(comparison), good: comparison.failingReasons.isEmpty)
        // The whole comparison in one line, HPT-style, right after the verdict.
        if let hpt = comparison.hpt { body += "<p class=\"hpt\"><strong>HPT:</strong> \(Markup.html(hpt.sentence))</p>" }
        body +=
            "<p>base: \(Markup.html(comparison.base.subject ?? "")) — \(comparison.base.runs.count) run(s); "
            + "head: \(Markup.html(comparison.head.subject ?? "")) — "
            + "\(comparison.head.runs.count) run(s); \(Markup.html(comparison.head.model)); \(Markup.html(comparison.head.machine))</p>"
        body += "<pre>" + ComparisonReport.designLines(comparison).map { Markup.html($0) }.joined(separator: "\n") + "</pre>"
        for suite in comparison.suites { body += suiteChanges(suite, confidence: comparison.design.confidence) }
        if !comparison.suites.isEmpty { body += "<p class=\"legend\">\(Markup.html(ComparisonReport.legend))</p>" }
        body += qualityChanges(comparison.quality)
        if !comparison.differences.isEmpty {
            body +=
                "<h2>Differences between the sides</h2><ul>"
                + comparison.differences.map {
                    "<li>\(Markup.html($0.field)): \(Markup.html($0.base)) → \(Markup.html($0.head))"
                        + "\($0.isCommitDetermined ? " (the commits' project files)" : " <strong>mismatch</strong>")</li>"
                }.joined() + "</ul>"
        }
        return body
    }

    /// A suite's changes: the intervals chart (with the thresholds) and the metric table with
    /// each verdict's reason.
    private static func suiteChanges(_ suite: SuiteComparison, confidence: Double) -> String {
        var body = "<h2>Suite \(Markup.html(suite.name))</h2>"
        if let hpt = suite.hpt { body += "<p class=\"hpt\"><strong>HPT:</strong> \(Markup.html(hpt.sentence))</p>" }
        let rows = suite.metrics.compactMap { change -> SVGChart.Interval? in
            guard let estimate = change.change, let lower = change.changeLower, let upper = change.changeUpper else { return nil }
            let scale = change.scale == .relative ? 100.0 : 1.0
            return SVGChart.Interval(
                label: "\(change.metric.name) (\(change.scale == .relative ? "%" : change.metric.unit.rawValue))",
                estimate: estimate * scale, lower: lower * scale, upper: upper * scale,
                threshold: change.threshold.map { $0 * scale }, verdict: change.verdict)
        }
        body += SVGChart.intervals(
            title:
                "Change head vs base with \(RunComparatorFormat.confidence(confidence)) "
                + "intervals (grey: the threshold)",
            rows: rows
        ) {
            String(format: "%+.1f", $0)
        }
        body +=
            "<table><tr><th>metric</th><th>base</th><th>head</th><th>change [interval]</th><th>n</th><th>verdict</th><th>why</th></tr>"
        for change in suite.metrics {
            body +=
                "<tr class=\"\(change.verdict.rawValue)\"><td>\(change.metric.name)</td>"
                + "<td>\(Format.value(change.baseLevel, of: change.metric))</td>"
                + "<td>\(Format.value(change.headLevel, of: change.metric))</td>"
                + "<td>\(Markup.html(ComparisonReport.interval(change)))</td>"
                + "<td>\(change.baseCount)/\(change.headCount)</td><td>\(change.verdict.words)</td>"
                + "<td>\(Markup.html(change.reason))</td></tr>"
        }
        return body + "</table>"
    }

    /// The checks that pass significantly less or more often on head, or changed undecided, and
    /// the turns answered less often or failing now.
    private static func qualityChanges(_ quality: QualityComparison) -> String {
        var body = ""
        for (title, checks) in [
            ("Checks that pass significantly less often on head", quality.regressions),
            ("Checks that pass significantly more often on head", quality.improvements),
            ("Checks that changed, too few replays to tell (not regressions)", quality.undecided),
        ] where !checks.isEmpty {
            body += "<h2>\(title)</h2><table><tr><th>where</th><th>check</th><th>passed base → head</th><th>detail</th><th>answer</th></tr>"
            for change in checks {
                body +=
                    "<tr><td>\(Markup.html(change.suite)) / \(Markup.html(change.conversation)) / "
                    + "\(change.turn.map { "turn \($0)" } ?? "conversation")</td>"
                    + "<td>\(Markup.html(change.check))</td>"
                    + "<td>\(change.basePassed)/\(change.baseTotal) → \(change.headPassed)/\(change.headTotal)"
                    + "\(change.adjustedPValue.map { String(format: ", p = %.2g adjusted", $0) } ?? "")</td>"
                    + "<td>\(Markup.html(change.detail ?? ""))</td><td>"
                    + "<div class=\"text\">\(Markup.html(change.answerExcerpt ?? ""))</div></td></tr>"
            }
            body += "</table>"
        }
        for (title, turns) in [
            ("Turns answered significantly less often on head", quality.turnRegressions),
            ("Turns that now fail, too few replays to tell", quality.turnsUndecided),
        ] where !turns.isEmpty {
            body += "<h2>\(title)</h2><ul>"
            body += turns.map {
                "<li>\(Markup.html($0.suite)) / \(Markup.html($0.conversation)) / turn \($0.turn): "
                    + "answered \($0.baseAnswered)/\($0.baseTotal) → "
                    + "\($0.headAnswered)/\($0.headTotal); \(Markup.html($0.headOutcome))</li>"
            }.joined()
            body += "</ul>"
        }
        return body
    }

    // MARK: History

    public static func render(history: History) -> String {
        var body = "<h1>ChatEval history — \(history.commits.count) commits</h1>"
        body += verdict(HistoryReport.headline(history), good: history.regressions.isEmpty)
        let labels = history.commits.map(\.shortId)
        for series in history.series {
            var values = [Double?](repeating: nil, count: history.commits.count)
            var band = [(Double, Double)?](repeating: nil, count: history.commits.count)
            for point in series.points {
                values[point.position] = point.median
                band[point.position] = (point.lower, point.upper)
            }
            let scale: Double, unit: String
            switch series.metric {
            case .metric(let metric) where metric.unit == .seconds: (scale, unit) = (1000, "ms")
            case .metric(let metric) where metric.unit == .bytes: (scale, unit) = (1.0 / 1_048_576, "MiB")
            case .metric(let metric) where metric.unit == .ratio: (scale, unit) = (100, "%")
            case .passRate: (scale, unit) = (100, "%")
            case .metric(let metric): (scale, unit) = (1, metric.unit.rawValue)
            }
            let markers = series.steps.map { step in
                SVGChart.Marker(
                    x: step.suspectPosition,
                    label: "\(history.commit(at: step.suspectPosition)?.shortId ?? "") \(HistoryReport.percent(step.change))",
                    isWorse: step.isWorse)
            }
            body += "<h2>\(Markup.html(series.metric.label)) — \(Markup.html(series.key.label))</h2>"
            body += SVGChart.lines(
                title: "\(series.metric.label): median per commit, band 25th–75th percentile", unit: unit,
                lines: [
                    SVGChart.Line(
                        name: series.metric.label, values: values.map { $0.map { $0 * scale } },
                        band: band.map { $0.map { ($0.0 * scale, $0.1 * scale) } })
                ],
                xLabels: labels, markers: markers, bounds: unit == "%" ? 0...100 : nil
            ) { String(format: "%.1f", $0) }
            if !series.steps.isEmpty {
                body += "<table><tr><th></th><th>change [interval]</th><th>suspect</th><th>subject</th><th>p</th></tr>"
                for step in series.steps {
                    let suspect = history.commit(at: step.suspectPosition)
                    body +=
                        "<tr class=\"\(step.isWorse ? "regression" : "improvement")\"><td>\(step.isWorse ? "worse" : "better")</td>"
                        + "<td>\(Markup.html(HistoryReport.describe(step, metric: series.metric)))</td><td>"
                        + "<code>\(Markup.html(suspect?.shortId ?? ""))</code></td>"
                        + "<td>\(Markup.html(suspect?.subject ?? ""))</td><td>\(String(format: "%.2g", step.pValue))</td></tr>"
                }
                body += "</table>"
            }
        }
        if history.series.isEmpty { body += "<p>No complete run of a clean working tree is recorded for these commits.</p>" }
        return page(title: "ChatEval history", body: body)
    }

    // MARK: The page

    private static func verdict(_ text: String, good: Bool) -> String {
        "<p class=\"verdict \(good ? "good" : "bad")\">\(Markup.html(text))</p>"
    }

    /// Where a turn's time to the first token went, as a stacked bar under its TTFT: template,
    /// tokenize, prefill (re-evaluating tokens the cache lost in red) and the first sample, each
    /// segment titled with its time. Empty for a turn whose runtime does not measure the parts.
    /// A served turn's bar has the server's prefill and the rest it does not break down.
    ///
    /// The bar is drawn to `scale` (seconds at full width, the table's longest TTFT, which its
    /// header names): a turn twice as slow has a bar twice as long, on a grey axis of the full
    /// width. Without a scale the bar fills its width (the parts' shares alone).
    static func firstTokenBar(_ metrics: TurnMetrics, scale: Double? = nil) -> String {
        let segments: [(String, Double, String)]
        if let parts = metrics.firstTokenParts {
            segments = [
                ("template", parts.template, "#94a3b8"), ("tokenize", parts.tokenize, "#cbd5e1"),
                ("prefill", parts.prefill - parts.reevaluated, "#2563eb"),
                ("re-evaluating tokens the cache lost", parts.reevaluated, "#dc2626"),
                ("first token", parts.firstSample, "#16a34a"), ("other", parts.other, "#e2e8f0"),
            ]
        } else if let split = metrics.servedFirstTokenSplit {
            segments = [
                ("server prefill", split.serverPrefill - split.reevaluated, "#2563eb"),
                ("re-evaluating tokens the cache lost", split.reevaluated, "#dc2626"),
                ("not broken down by the server (request, queue, template, first token, network)", split.notBrokenDown, "#e2e8f0"),
            ]
        } else {
            return ""
        }
        let total = segments.reduce(0) { $0 + max($1.1, 0) }
        guard total > 0, let line = FirstTokenLine.render(metrics) else { return "" }
        let full = 90.0
        // The bar's length is the TTFT against the scale; its parts share that length.
        let ttft = metrics.timeToFirstToken
        let width = scale.map { $0 > 0 && ttft.isFinite ? full * min(max(ttft, 0) / $0, 1) : full } ?? full
        var x = 0.0
        let height = scale == nil ? 8 : 10
        var svg =
            "<br><svg class=\"parts\" width=\"\(Int(full))\" height=\"\(height)\" viewBox=\"0 0 \(Int(full)) \(height)\" role=\"img\">"
        svg += "<title>\(Markup.html(line))\(scale.map { " (full width: \(Markup.html(Format.duration($0))))" } ?? "")</title>"
        if scale != nil { svg += "<line x1=\"0\" x2=\"\(Int(full))\" y1=\"9.5\" y2=\"9.5\" stroke=\"#94a3b8\" stroke-width=\"1\"/>" }
        for (name, seconds, colour) in segments where seconds > 0 {
            let w = width * seconds / total
            svg +=
                "<rect x=\"\(String(format: "%.1f", x))\" y=\"0\" width=\"\(String(format: "%.1f", w))\" height=\"8\" fill=\"\(colour)\">"
            svg += "<title>\(name) \(Markup.html(Format.duration(seconds)))</title></rect>"
            x += w
        }
        return svg + "</svg>"
    }

    private static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(Markup.html(title))</title>
        <style>
        body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#0f172a;max-width:1100px}
        h1{font-size:20px}h2{font-size:16px;margin-top:28px}
        table{border-collapse:collapse;margin:8px 0;font-size:13px}\
        th,td{border:1px solid #cbd5e1;padding:3px 6px;vertical-align:top;text-align:left}
        th{background:#f1f5f9}.verdict{font-weight:600;padding:8px 12px;border-radius:4px}.good{background:#dcfce7}.bad{background:#fee2e2}
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(460px,1fr));gap:8px}
        svg.chart{width:100%;height:auto;background:#fff;border:1px solid #e2e8f0}
        .chart .title{font-size:13px;font-weight:600;fill:#0f172a}.chart .tick,.chart .label{font-size:11px;fill:#475569}\
        .chart .legend,.chart .marker{font-size:11px}
        .chart .grid{stroke:#e2e8f0}.chart .axis{stroke:#64748b}.chart .band{fill:#e2e8f0}
        .text{white-space:pre-wrap;max-width:420px;overflow-wrap:anywhere}.pass{color:#15803d}.fail{color:#b91c1c}
        tr.regression td{background:#fef2f2}tr.improvement td{background:#f0fdf4}.note{color:#64748b;font-size:12px}
        table.matrix span.improvement{background:#dcfce7;color:#15803d}table.matrix span.regression{background:#fee2e2;color:#b91c1c}
        table.matrix span.undecided{color:#a16207}p.legend{color:#475569;font-size:12px}
        </style></head><body>
        \(body)
        </body></html>

        """
    }
}
