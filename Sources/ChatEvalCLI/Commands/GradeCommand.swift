import ArgumentParser
import ChatEvalGit
import ChatEvalReport
import ChatEvalRunner
import ChatEvalStore
import ChatEvalSuites
import Foundation

struct GradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grade",
        abstract: "Grade answers against a suite's checks, without a model: a file of answers, or a recorded run again.",
        discussion: """
            With --answers, the file is JSON Lines, one turn per line:
              {"conversation": "capital", "turn": 1, "answer": "Paris.", "finish_reason": "stop", "metrics": {"time_to_first_token": 0.21}}
            turn is 1-based. metrics use the result files' names (time_to_first_token, total_time, generated_tokens, ...) and \
            may give only some: checks on the others say they were not given. finish_reason takes OpenAI's stop and length \
            or ChatEval's eog, max_tokens and stop_string. \
            A failed turn is {"conversation": ..., "turn": N, "failure": {"code": "timeout", "message": "..."}}.

            With a result file, every answer of the run is graded again with the suites as they are now (a check fixed \
            after the run); the suites are read from this repository's working tree, at the paths the run recorded \
            relative to its own repository, unless suite files are named (a path outside the recorded repository is refused).

            Examples:
              chateval grade suites/memory.yaml --answers answers.jsonl
              chateval grade reports/20261123T165006Z-7bfb935-n6y819bh.json
              chateval grade reports/20261123T165006Z-7bfb935-n6y819bh.json \\
                  suites/memory.yaml --output regraded.json

            Exit codes: 0 gates passed, 1 a gate failed, 2 bad input.
            """)

    @Argument(
        help: ArgumentHelp(
            "A suite file (with --answers), or a result file to grade again (then suite files to use instead of the recorded ones).",
            valueName: "file"))
    var inputs: [String]
    @Option(help: ArgumentHelp("JSON Lines file of answers to grade against the suite.", valueName: "file")) var answers: String?
    @Option(
        help: ArgumentHelp(
            "Also write the graded result as JSON: the suite part of a result file with --answers, "
                + "a whole result file when grading a run again.",
            valueName: "file"))
    var output: String?
    @OptionGroup var report: ReportOptions

    func validate() throws {
        guard let first = inputs.first else {
            throw ValidationError("name a suite file (with --answers FILE) or a result file to grade again")
        }
        if answers != nil, inputs.count != 1 { throw ValidationError("--answers grades one suite: name exactly one suite file") }
        if answers == nil, SuiteFiles.isSuiteName(first) {
            throw ValidationError(
                "\(first) is a suite: grade it with --answers FILE (a JSON Lines file of answers), or name a result file to grade again")
        }
    }

    func run() throws {
        if let answers {
            try gradeAnswers(answers, suitePath: inputs[0])
        } else {
            try regradeRun(inputs[0], suitePaths: Array(inputs.dropFirst()))
        }
    }

    private func gradeAnswers(_ answers: String, suitePath: String) throws {
        let suite = try SuiteFiles.load([suitePath])[0]
        let lines: [AnswerLine]
        do {
            lines = try AnswerGrader.read(answers, for: suite)
        } catch {
            complain(error.description)
            throw failure("\(error.errors.count) problem(s) in \(answers); nothing was graded", .badInput)
        }
        let record = AnswerGrader.grade(suite, answers: lines)
        say("suite \(suite.name) — \(suite.path), \(lines.count) answers from \(answers)")
        for conversation in record.conversations {
            say("\n  \(conversation.id)")
            conversation.turns.forEach { say(AnswerLines.render($0, full: report.showAnswers, indent: "    "), styled: true) }
            conversation.checks.forEach { say(VerdictLine.render($0, indent: "    conversation "), styled: true) }
        }
        say("\n" + GateReport.render(verdicts: record.measuredVerdicts, gates: record.gates, indent: "  "))
        try write(record)
        if record.gates.contains(where: { !$0.passed }) { throw failure("gate failed", .gateFailed) }
    }

    private func regradeRun(_ path: String, suitePaths: [String]) throws {
        let recorded: RunRecord
        do {
            recorded = try ResultFolder.read(URL(fileURLWithPath: path))
        } catch {
            throw failure("\(error.description); name a result file written by `chateval run` (or a suite with --answers FILE)", .badInput)
        }
        let paths = try suitePaths.isEmpty ? recorded.suites.map { try Self.resolve($0.path, of: recorded, resultFile: path) } : suitePaths
        for missing in paths where !FileManager.default.fileExists(atPath: missing) {
            throw failure(
                "\(missing): the run's suite file is not there; name the suite files to grade with: chateval grade \(path) SUITE...",
                .badInput)
        }
        let (regraded, notes) = ResultRegrading.regrade(recorded, with: try SuiteFiles.load(paths))
        notes.forEach { warn($0) }
        say("graded again: \(path) (\(regraded.suites.count) suites, answers and measurements as recorded)")
        say(RunReport.render([regraded], options: report.options()), styled: true)
        try write(regraded)
        if regraded.gatesPassed == false { throw failure("gate failed", .gateFailed) }
    }

    /// A recorded suite path as a file of this working tree: relative to the repository the run
    /// recorded (its absolute paths made relative to that repository's root), resolved in the
    /// repository the command runs in (else the current folder). A path that leaves either — an
    /// absolute path elsewhere, `..` beyond the root — is refused unread: a result file is data,
    /// and must not make `grade` read (and quote) any file on the machine.
    static func resolve(
        _ recordedPath: String, of record: RunRecord, resultFile: String,
        currentFolder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) throws -> String {
        let root = (try? GitRepository.discover(startingAt: currentFolder))?.workdir.map { URL(fileURLWithPath: $0) } ?? currentFolder
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
