import ChatEvalCore
import ChatEvalStore
import Foundation

/// The compact cross-model table — one row per model of a run, what llama-bench's `-o md` and
/// `-o csv` give for a prompt and a generation length, for chats: the median time to first token
/// over every measured turn ± its median absolute deviation, the median prefill and decode rates,
/// the median share of the prompt the cache served on turns 2 and later (the turns that could
/// reuse), and how busy the machine was while that model ran (models run one after the other).
public struct ModelTable: Sendable {
    public struct Row: Sendable {
        public var label: String
        public var turns: Int
        public var timeToFirstToken: Double?
        /// Median absolute deviation of the turns' TTFT from their median.
        public var timeToFirstTokenDeviation: Double?
        public var prefillTokensPerSecond: Double?
        public var decodeTokensPerSecond: Double?
        /// Median reuse ratio of the answered turns after each conversation's first; nil when none.
        public var laterTurnsReuse: Double?
        /// Cores other processes used, on average over this model's measured replays.
        public var otherCores: Double?
        /// Measured replays during which other processes used a core's `busyThreshold` or more.
        public var busyReplays: Int
        public var replays: Int
    }

    public var rows: [Row]

    public init(_ records: [RunRecord]) {
        rows = records.map(Self.row)
    }

    private static func row(_ record: RunRecord) -> Row {
        let replays = record.suites.flatMap { $0.conversations.filter(\.isMeasured) }
        let metrics = replays.flatMap { $0.turns.compactMap(\.metrics) }
        let later = replays.flatMap { $0.turns.filter { $0.index > 0 }.compactMap(\.metrics) }
        let ttft = Distribution(metrics.map(\.timeToFirstToken))
        let deviation = ttft.flatMap { center in Distribution(metrics.map { abs($0.timeToFirstToken - center.median) })?.median }
        let loads = replays.compactMap(\.load)
        return Row(
            label: record.modelLabel, turns: metrics.count, timeToFirstToken: ttft?.median, timeToFirstTokenDeviation: deviation,
            prefillTokensPerSecond: Distribution(metrics.compactMap(\.prefillTokensPerSecond))?.median,
            decodeTokensPerSecond: Distribution(metrics.compactMap(\.decodeTokensPerSecond))?.median,
            laterTurnsReuse: Distribution(later.compactMap(\.reuseRatio))?.median,
            otherCores: loads.isEmpty ? nil : loads.map(\.otherCores).reduce(0, +) / Double(loads.count),
            busyReplays: loads.filter(\.isBusy).count, replays: replays.count)
    }

    static let titles = ["model", "turns", "TTFT p50 ± MAD", "prefill t/s", "decode t/s", "reuse turns ≥ 2", "other cores"]

    /// What the columns mean, under the terminal and Markdown tables.
    static let legend =
        "medians over every measured turn; MAD: median absolute deviation of the turns' TTFT; "
        + "reuse: share of the prompt served from the cache on each conversation's turns 2 and later; "
        + "other cores: used by other processes while that model ran (models run one after the other)"

    private func cells(_ row: Row) -> [String] {
        [
            row.label, String(row.turns),
            "\(Format.duration(row.timeToFirstToken)) ± \(Format.duration(row.timeToFirstTokenDeviation))",
            Format.rate(row.prefillTokensPerSecond), Format.rate(row.decodeTokensPerSecond), Format.percent(row.laterTurnsReuse),
            row.otherCores.map { String(format: "%.2f", $0) + (row.busyReplays > 0 ? " (busy in \(row.busyReplays)/\(row.replays))" : "") }
                ?? "–",
        ]
    }

    /// The table for a terminal, with its legend.
    public func terminal() -> String {
        var table = TextTable(Self.titles.enumerated().map { .init($0.element, $0.offset == 0 ? .left : .right) })
        for row in rows { table.add(cells(row)) }
        return "models\n" + table.render(indent: "  ") + "\n" + Format.wrap("  (\(Self.legend))", width: RunReport.width, hanging: "   ")
    }

    /// A GitHub-flavoured Markdown table, with its legend as a line under it.
    public func markdown() -> String {
        var lines = [
            "| " + Self.titles.joined(separator: " | ") + " |",
            "|" + Self.titles.enumerated().map { $0.offset == 0 ? ":---" : "---:" }.joined(separator: "|") + "|",
        ]
        lines += rows.map { row in "| " + cells(row).map(Markup.markdown).joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n") + "\n\n_\(Self.legend)._"
    }

    /// An HTML table (for the HTML report), with its legend.
    func html() -> String {
        "<h2>Models</h2><table><tr>" + Self.titles.map { "<th>\(Markup.html($0))</th>" }.joined() + "</tr>"
            + rows.map { row in "<tr>" + cells(row).map { "<td>\(Markup.html($0))</td>" }.joined() + "</tr>" }.joined()
            + "</table><p class=\"note\">\(Markup.html(Self.legend))</p>"
    }

    /// The header names of `csv()`, in column order.
    public static let csvColumns = [
        "model", "turns", "time_to_first_token_p50_s", "time_to_first_token_mad_s", "prefill_tokens_per_s_p50",
        "decode_tokens_per_s_p50", "reuse_ratio_turns_2_on_p50", "other_cores_mean", "busy_replays", "replays",
    ]

    /// RFC 4180 CSV: a header row, then a row per model; numbers plain, seconds and tokens/s.
    public func csv() -> String {
        rows.reduce(CSV.record(Self.csvColumns)) { text, row in
            text
                + CSV.record([
                    CSV.text(row.label), String(row.turns), CSV.decimal(row.timeToFirstToken), CSV.decimal(row.timeToFirstTokenDeviation),
                    CSV.decimal(row.prefillTokensPerSecond), CSV.decimal(row.decodeTokensPerSecond), CSV.decimal(row.laterTurnsReuse),
                    CSV.decimal(row.otherCores), String(row.busyReplays), String(row.replays),
                ])
        }
    }

    /// True when `records` ran the built-in chat benchmark alone: their report is this table first.
    public static func isBenchmark(_ records: [RunRecord]) -> Bool {
        !records.isEmpty && records.allSatisfy { $0.suites.count == 1 && $0.suites[0].path == BuiltInSuite.chatBenchmarkPath }
    }
}
