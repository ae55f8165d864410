import ArgumentParser
import ChatEvalCompare
import ChatEvalHistory
import ChatEvalReport
import ChatEvalStore
import Foundation

extension ReportFormat: ExpressibleByArgument {}

/// Where a command's report goes and in which formats (`run`, `compare`, `history`).
///
/// - `--format NAME` (repeatable) writes that format to standard output — except `markdown`,
///   which goes to `$GITHUB_STEP_SUMMARY` when that is set (the job summary), appended and kept
///   under GitHub's 1 MiB limit. At most one format can take standard output.
/// - `--output FILE` (repeatable) writes a file, atomically, its format from the extension.
/// - With neither, the terminal report goes to standard output; `--output` alone adds files to it.
struct ReportOptions: ParsableArguments {
    @Option(name: .customLong("format"), help: ArgumentHelp(
        "Report format on standard output: terminal, json, markdown (to $GITHUB_STEP_SUMMARY when set), junit or html. Repeatable.",
        valueName: "format"))
    var formats: [ReportFormat] = []

    @Option(name: .customLong("output"), help: ArgumentHelp(
        "Also write the report to FILE, in the format its extension names (\(ReportFormat.extensions)). Repeatable.", valueName: "file"))
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
        let onStandardOutput = result.filter { $0.1 == .standardOutput }.map(\.0.rawValue)
        if onStandardOutput.count > 1 {
            throw ValidationError("--format \(onStandardOutput.joined(separator: " and --format ")) would all go to standard output; "
                + "write all but one to files with --output FILE (e.g. --output report.\(onStandardOutput.last == "junit" ? "xml" : onStandardOutput.last ?? "json"))")
        }
        for path in outputs {
            let pathExtension = URL(fileURLWithPath: path).pathExtension
            guard let format = ReportFormat(fileExtension: pathExtension) else {
                throw ValidationError("--output \(path): cannot tell the format from the extension '\(pathExtension)'; use one of \(ReportFormat.extensions)")
            }
            result.append((format, .file(path)))
        }
        if formats.isEmpty { result.insert((.terminal, .standardOutput), at: 0) }
        return result
    }

    /// True when the terminal report is among the outputs on standard output (progress and
    /// headers may then go there too; otherwise standard output holds only the chosen format).
    var terminalOnStandardOutput: Bool { formats.isEmpty || formats.contains(.terminal) }
}

/// What a report is about.
enum ReportSubject {
    case runs([RunRecord])
    case comparison(Comparison)
    case history(History)

    /// The report in `format`; `terminal` renders the terminal tables (the commands' own renderers).
    func render(_ format: ReportFormat, markdownBudget: Int = MarkdownReport.defaultBudget, terminal: () -> String) throws -> String {
        switch (format, self) {
        case (.terminal, _): return terminal()
        case (.json, .runs(let records)):
            let encoder = ResultWriter.makeEncoder(pretty: true)
            return String(decoding: records.count == 1 ? try encoder.encode(records[0]) : try encoder.encode(records), as: UTF8.self)
        case (.json, .comparison(let comparison)): return String(decoding: try ResultWriter.makeEncoder(pretty: true).encode(comparison), as: UTF8.self)
        case (.json, .history(let history)): return String(decoding: try ResultWriter.makeEncoder(pretty: true).encode(history), as: UTF8.self)
        case (.markdown, .runs(let records)): return MarkdownReport.render(runs: records, budget: markdownBudget)
        case (.markdown, .comparison(let comparison)): return MarkdownReport.render(comparison: comparison, budget: markdownBudget)
        case (.markdown, .history(let history)): return MarkdownReport.render(history: history, budget: markdownBudget)
        case (.junit, .runs(let records)): return JUnitReport.render(runs: records)
        case (.junit, .comparison(let comparison)): return JUnitReport.render(comparison: comparison)
        case (.junit, .history(let history)): return JUnitReport.render(history: history)
        case (.html, .runs(let records)): return HTMLReport.render(runs: records)
        case (.html, .comparison(let comparison)): return HTMLReport.render(comparison: comparison)
        case (.html, .history(let history)): return HTMLReport.render(history: history)
        }
    }
}

extension ReportOptions {
    /// Writes `subject` in every format asked for. Files are replaced atomically; the job summary
    /// is appended to (GitHub gathers every step's), within what is left of its 1 MiB. A file
    /// that cannot be written is exit 3 (the run itself is recorded already).
    func write(_ subject: ReportSubject, environment: [String: String] = ProcessInfo.processInfo.environment, terminal: () -> String) throws {
        for (format, destination) in try destinations(environment: environment) {
            switch destination {
            case .standardOutput:
                let text = try subject.render(format, terminal: terminal)
                switch format {
                case .terminal, .markdown: say(text)
                case .json: sayJSON(text)
                case .junit, .html: FileHandle.standardOutput.write(Data(text.utf8))   // escaped by the renderers: no control characters
                }
            case .stepSummary(let path):
                let used = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                let budget = max(4_096, MarkdownReport.defaultBudget - used)
                let text = try subject.render(format, markdownBudget: budget, terminal: terminal)
                do {
                    if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
                    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                    defer { try? handle.close() }
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data((text + "\n").utf8))
                } catch {
                    throw failure("cannot append the Markdown report to $GITHUB_STEP_SUMMARY (\(path)): \(error.localizedDescription)", .runIncomplete)
                }
            case .file(let path):
                let text = try subject.render(format, terminal: terminal)
                do {
                    try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: path))
                } catch {
                    throw failure("cannot write the \(format.rawValue) report: \(error.description)", .runIncomplete)
                }
            }
        }
    }
}
