import ChatEvalCompare
import ChatEvalHistory
import ChatEvalStore
import Foundation

/// What a report is about.
public enum ReportSubject {
    /// A run's records (one per model); with the comparison `run --baseline` made, whose JSON is
    /// then the comparison (its `sources` name the two result files), and that comparison's base
    /// run, whose turns the CSV lists before the head's.
    case runs([RunRecord], comparison: Comparison? = nil, base: [RunRecord] = [])
    /// A comparison, with the runs of its sides (base first) whose turns the CSV lists.
    case comparison(Comparison, runs: [RunRecord] = [])
    case history(History)
    /// A bisection (terminal, json and markdown only: `bisect` refuses the others).
    case bisect(BisectOutcome)

    /// The report in `format`; `terminal` renders the terminal tables (the commands' own renderers).
    public func render(_ format: ReportFormat, markdownBudget: Int = MarkdownReport.defaultBudget, terminal: () -> String) throws -> String
    {
        switch (format, self) {
        case (.terminal, _): return terminal()
        case (.json, _): return String(decoding: try json(), as: UTF8.self)
        case (.markdown, .runs(let records, let comparison, _)):
            return MarkdownReport.render(runs: records, comparison: comparison, budget: markdownBudget)
        case (.markdown, .comparison(let comparison, _)): return MarkdownReport.render(comparison: comparison, budget: markdownBudget)
        case (.markdown, .history(let history)): return MarkdownReport.render(history: history, budget: markdownBudget)
        case (.markdown, .bisect(let outcome)): return BisectReport.markdown(outcome)
        case (.junit, .bisect), (.html, .bisect), (.csv, .bisect): return terminal()
        case (.junit, .runs(let records, let comparison, _)): return JUnitReport.render(runs: records, comparison: comparison)
        case (.junit, .comparison(let comparison, _)): return JUnitReport.render(comparison: comparison)
        case (.junit, .history(let history)): return JUnitReport.render(history: history)
        case (.html, .runs(let records, let comparison, _)): return HTMLReport.render(runs: records, comparison: comparison)
        case (.html, .comparison(let comparison, _)): return HTMLReport.render(comparison: comparison)
        case (.html, .history(let history)): return HTMLReport.render(history: history)
        // The built-in benchmark's CSV is its table, a row per model (as llama-bench's `-o csv`); a suite's lists every turn.
        case (.csv, .runs(let records, _, let base)):
            return ModelTable.isBenchmark(records) ? ModelTable(records).csv() : CSVReport.render(runs: base + records)
        case (.csv, .comparison(_, let runs)): return CSVReport.render(runs: runs)
        case (.csv, .history(let history)): return HistoryCSV.render(history)
        }
    }

    /// The documented records: a run's record (an array of them for several models), a comparison, a history.
    private func json() throws -> Data {
        let encoder = ResultWriter.makeEncoder(pretty: true)
        switch self {
        case .runs(_, let comparison?, _), .comparison(let comparison, _): return try encoder.encode(comparison)
        case .runs(let records, nil, _): return records.count == 1 ? try encoder.encode(records[0]) : try encoder.encode(records)
        case .history(let history): return try encoder.encode(history)
        case .bisect(let outcome): return try encoder.encode(outcome)
        }
    }
}
