import ArgumentParser
import ChatEvalReport
import ChatEvalWorkspace
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

    func destinations(environment: [String: String]) throws -> [(format: ReportFormat, destination: ReportOutput.Destination)] {
        var result: [(format: ReportFormat, destination: ReportOutput.Destination)] = []
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

    /// Where the report goes (`ReportOutput`), in the environment of this process.
    var resolved: ReportOutput {
        ReportOutput(destinations: (try? destinations(environment: ProcessInfo.processInfo.environment)) ?? [(.terminal, .standardOutput)])
    }

    /// Writes `subject` in every format asked for (`ReportOutput.write`).
    func write(_ subject: ReportSubject, terminal: () -> String) throws { try resolved.write(subject, terminal: terminal) }
}
