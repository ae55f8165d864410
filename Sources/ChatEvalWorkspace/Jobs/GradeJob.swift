import ChatEvalCore
import ChatEvalGit
import ChatEvalReport
import ChatEvalRunner
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// `chateval grade`: answers graded against a suite's checks without a model — a file of answers,
/// or a recorded run again — printed, written as JSON when asked, and the gates' exit thrown.
package struct GradeJob: Sendable {
    /// Where the graded result is also written as JSON (nil: nowhere).
    package var output: String?
    package var reportOptions: RunReportOptions

    package init(output: String?, reportOptions: RunReportOptions) {
        self.output = output
        self.reportOptions = reportOptions
    }

    /// Grades a JSON Lines file of answers against one suite; exit 1 when a gate fails.
    package func gradeAnswers(_ answers: String, suitePath: String) throws {
        let suite = try SuiteFiles.load([suitePath])[0]
        let lines: [AnswerLine]
        do {
            lines = try AnswerGrader.read(answers, for: suite)
        } catch {
            complain(error.description)
            throw failure("\(error.errors.count) problem(s) in \(answers); nothing was graded", .badInput)
        }
        let record = AnswerGrader.grade(suite, answers: lines, threads: LocalSetup.availableCores)
        say("suite \(suite.name) — \(suite.path), \(lines.count) answers from \(answers)")
        for conversation in record.conversations {
            say("\n  \(conversation.id)")
            conversation.turns.forEach { say(AnswerLines.render($0, full: reportOptions.showAnswers, indent: "    "), styled: true) }
            conversation.checks.forEach { say(VerdictLine.render($0, indent: "    conversation "), styled: true) }
        }
        say("\n" + GateReport.render(verdicts: record.measuredVerdicts, gates: record.gates, indent: "  "))
        try write(record)
        if record.gates.contains(where: { !$0.passed }) { throw failure("gate failed", .gateFailed) }
    }

    /// Grades a recorded run again with the suites as they are now (or those named); exit 1 when a gate fails.
    package func regradeRun(_ path: String, suitePaths: [String]) throws {
        let recorded: RunRecord
        do {
            recorded = try ResultFolder.read(URL(fileURLWithPath: path))
        } catch {
            throw failure("\(error.description); name a result file written by `chateval run` (or a suite with --answers FILE)", .badInput)
        }
        // The repository is found once, not once per suite.
        let root = Workspace.root()
        let paths =
            try suitePaths.isEmpty
            ? recorded.suites.map { try Self.resolve($0.path, of: recorded, resultFile: path, root: root) } : suitePaths
        for missing in paths where !FileManager.default.fileExists(atPath: missing) {
            throw failure(
                "\(missing): the run's suite file is not there; name the suite files to grade with: chateval grade \(path) SUITE...",
                .badInput)
        }
        let (regraded, notes) = ResultRegrading.regrade(recorded, with: try SuiteFiles.load(paths), threads: LocalSetup.availableCores)
        notes.forEach { warn($0) }
        say("graded again: \(path) (\(regraded.suites.count) suites, answers and measurements as recorded)")
        say(RunReport.render([regraded], options: reportOptions), styled: true)
        try write(regraded)
        if regraded.gatesPassed == false { throw failure("gate failed", .gateFailed) }
    }

    /// A recorded suite path as a file of this working tree: relative to the repository the run
    /// recorded (its absolute paths made relative to that repository's root), resolved in the
    /// repository the command runs in (`root`: its working tree, else the current folder). A path that leaves either — an
    /// absolute path elsewhere, `..` beyond the root — is refused unread: a result file is data,
    /// and must not make `grade` read (and quote) any file on the machine.
    package static func resolve(
        _ recordedPath: String, of record: RunRecord, resultFile: String,
        root: URL
    ) throws -> String {
        var relative = recordedPath
        if recordedPath.hasPrefix("/") {
            let recordedRoot = record.git?.workdir.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
            guard let recordedRoot, recordedPath.hasPrefix(recordedRoot) else {
                throw failure(
                    "\(resultFile) names a suite outside the repository it was recorded in "
                        + "(\(Terminal.safe(String(recordedPath.prefix(200))))); "
                        + "name the suite files to grade with: chateval grade \(resultFile) SUITE...", .badInput)
            }
            relative = String(recordedPath.dropFirst(recordedRoot.count))
        }
        let resolved = root.appendingPathComponent(relative).standardizedFileURL.path
        let rootPath = root.standardizedFileURL.path
        guard resolved.hasPrefix(rootPath.hasSuffix("/") ? rootPath : rootPath + "/"), SuiteFiles.isSuiteName(resolved) else {
            throw failure(
                "\(resultFile) names the suite \(Terminal.safe(String(recordedPath.prefix(200)))), "
                    + "which is not a .yaml file inside this repository; "
                    + "name the suite files to grade with: chateval grade \(resultFile) SUITE...", .badInput)
        }
        return resolved
    }

    private func write(_ value: some Encodable) throws {
        guard let output else { return }
        do {
            try AtomicFile.write(try ResultWriter.makeEncoder(pretty: true).encode(value), to: URL(fileURLWithPath: output))
        } catch {
            throw failure("cannot write \(output): \(error)", .runIncomplete)
        }
    }
}
