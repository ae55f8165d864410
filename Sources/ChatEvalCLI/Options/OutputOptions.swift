import ArgumentParser
import ChatEvalCompare
import ChatEvalCore
import ChatEvalHistory
import ChatEvalReport
import ChatEvalStore
import Foundation

extension ReportFormat: ExpressibleByArgument {}

/// Where a command's report goes and in which formats (`run`, `compare`, `report`, `history`).
///
/// - `--format NAME` (repeatable) writes that format to standard output — except `markdown`,
///   which goes to `$GITHUB_STEP_SUMMARY` when that is set (the job summary), appended and kept
///   under GitHub's 1 MiB limit. At most one format can take standard output.
/// - `--output FILE` (repeatable) writes a file, atomically, its format from the extension.
/// - The terminal report goes to standard output whenever no other format does (with neither
///   option, with `--output` alone, or with the Markdown going to the job summary).
///
/// (Named apart from `ReportOptions`, which says how much a terminal report shows.)
struct OutputOptions: ParsableArguments {
    @Option(
        name: .customLong("format"),
        help: ArgumentHelp(
            "Report format on standard output: terminal, json, markdown (to $GITHUB_STEP_SUMMARY when set), junit, html or csv. "
                + "Repeatable.",
            valueName: "format"))
    var formats: [ReportFormat] = []

    @Option(
        name: .customLong("output"),
        help: ArgumentHelp(
            "Also write the report to FILE, in the format its extension names (\(ReportFormat.extensions)). Repeatable.", valueName: "file")
    )
    var outputs: [String] = []

    func validate() throws {
        _ = try destinations(environment: ProcessInfo.processInfo.environment)
    }

    /// Where each format goes.
    enum Destination: Equatable {
        case standardOutput
        case stepSummary(String)
        case file(String)
    }

    func destinations(environment: [String: String]) throws -> [(ReportFormat, Destination)] {
        var result: [(ReportFormat, Destination)] = []
        let summary = environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
        for format in formats where !result.contains(where: { $0.0 == format }) {
            if format == .markdown, let summary {
                result.append((format, .stepSummary(summary)))
            } else {
                result.append((format, .standardOutput))
            }
        }
        let onStandardOutput = result.filter { $0.1 == .standardOutput }.map(\.0)
        if onStandardOutput.count > 1, let last = onStandardOutput.last {
            throw ValidationError(
                "--format \(onStandardOutput.map(\.rawValue).joined(separator: " and --format ")) would all go to standard output; "
                    + "write all but one to files with --output FILE (e.g. --output report.\(last.fileExtension))")
        }
        for path in outputs {
            let pathExtension = URL(fileURLWithPath: path).pathExtension
            guard let format = ReportFormat(fileExtension: pathExtension) else {
                throw ValidationError(
                    "--output \(path): cannot tell the format from the extension '\(pathExtension)'; use one of \(ReportFormat.extensions)")
            }
            result.append((format, .file(path)))
        }
        if !result.contains(where: { $0.1 == .standardOutput }) { result.insert((.terminal, .standardOutput), at: 0) }
        return result
    }

    /// A usage error when `format` is asked for, on standard output or in a file, by a command
    /// whose report has no such form (`reason` says why and what to use instead).
    func refuse(_ format: ReportFormat, _ reason: String) throws {
        if formats.contains(format) {
            throw ValidationError("--format \(format.rawValue): \(reason)")
        }
        if let path = outputs.first(where: { ReportFormat(fileExtension: URL(fileURLWithPath: $0).pathExtension) == format }) {
            throw ValidationError("--output \(path): \(reason)")
        }
    }

    /// True when standard output carries the terminal report (headers may then go there too;
    /// otherwise standard output holds only the chosen format).
    func terminalOnStandardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        ((try? destinations(environment: environment)) ?? []).contains { $0.0 == .terminal && $0.1 == .standardOutput }
    }

    /// Prints a line that is not part of the report (a header, where the result file went): on
    /// standard output beside the terminal report, else on standard error, so that `--format json`
    /// (or junit, html) leaves standard output to that format alone.
    func info(_ text: String) {
        if terminalOnStandardOutput() { say(text) } else { complain(text) }
    }
}

/// What a report is about.
enum ReportSubject {
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
    func render(_ format: ReportFormat, markdownBudget: Int = MarkdownReport.defaultBudget, terminal: () -> String) throws -> String {
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

extension OutputOptions {
    /// Writes `subject` in every format asked for. Files are replaced atomically; the job summary
    /// is appended to (GitHub gathers every step's), within what is left of its 1 MiB. A file
    /// that cannot be written is exit 3 (the run itself is recorded already).
    func write(_ subject: ReportSubject, environment: [String: String] = ProcessInfo.processInfo.environment, terminal: () -> String) throws
    {
        for (format, destination) in try destinations(environment: environment) {
            switch destination {
            case .standardOutput:
                let text = try subject.render(format, terminal: terminal)
                switch format {
                case .terminal: say(text, styled: true)  // ✓ and ✗ coloured on a terminal only
                case .markdown: say(text)
                case .json: sayJSON(text)
                // junit and html are escaped by the renderers: no control characters
                case .junit, .html: FileHandle.standardOutput.write(Data(Secrets.redact(text).utf8))
                case .csv: FileHandle.standardOutput.write(Data(Secrets.redact(Terminal.safeCSV(text)).utf8))
                }
            case .stepSummary(let path):
                let used = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                let budget = max(4_096, MarkdownReport.defaultBudget - used)
                let text = Secrets.redact(Terminal.safeLines(try subject.render(format, markdownBudget: budget, terminal: terminal)))
                do {
                    if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
                    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                    defer { try? handle.close() }
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data((text + "\n").utf8))
                } catch {
                    throw failure(
                        "cannot append the Markdown report to $GITHUB_STEP_SUMMARY (\(path)): \(error.localizedDescription)", .runIncomplete
                    )
                }
            case .file(let path):
                var text = try subject.render(format, terminal: terminal)
                // A file is read on a terminal too (cat, less -R): the same sanitising as standard
                // output — answers' escape sequences (clear screen, OSC 52 clipboard, OSC 8 links),
                // BEL, NUL and C1 bytes shown, never obeyed. JUnit and HTML escape them already.
                switch format {
                case .terminal, .markdown: text = Terminal.safeLines(text)
                case .json: text = Terminal.safeJSON(text)
                case .csv: text = Terminal.safeCSV(text)
                case .junit, .html: break
                }
                text = Secrets.redact(text)
                do {
                    try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: path))
                } catch {
                    throw failure("cannot write the \(format.rawValue) report: \(error.description)", .runIncomplete)
                }
            }
        }
    }
}
