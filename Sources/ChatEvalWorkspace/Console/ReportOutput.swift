import ChatEvalCore
import ChatEvalReport
import ChatEvalStore
import Foundation

/// Where a command's report goes and in which formats: standard output, GitHub's job summary
/// (appended), files (replaced atomically), decided by the caller.
package struct ReportOutput: Sendable {
    /// Where each format goes.
    package enum Destination: Equatable, Sendable {
        case standardOutput
        case stepSummary(String)
        case file(String)
    }

    /// Each format asked for and where it goes; the terminal report is among them whenever no
    /// other format has standard output.
    package var destinations: [(format: ReportFormat, destination: Destination)]

    package init(destinations: [(format: ReportFormat, destination: Destination)]) {
        self.destinations = destinations
    }

    /// True when standard output carries the terminal report (headers may then go there too;
    /// otherwise standard output holds only the chosen format).
    var terminalOnStandardOutput: Bool { destinations.contains { $0.format == .terminal && $0.destination == .standardOutput } }

    /// Prints a line that is not part of the report (a header, where the result file went): on
    /// standard output beside the terminal report, else on standard error, so that `--format json`
    /// (or junit, html) leaves standard output to that format alone.
    package func info(_ text: String) {
        if terminalOnStandardOutput { say(text) } else { complain(text) }
    }

    /// Writes `subject` in every format asked for. Files are replaced atomically; the job summary
    /// is appended to (GitHub gathers every step's), within what is left of its 1 MiB. A file
    /// that cannot be written is exit 3 (the run itself is recorded already).
    package func write(_ subject: ReportSubject, terminal: () -> String) throws {
        for (format, destination) in destinations {
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
