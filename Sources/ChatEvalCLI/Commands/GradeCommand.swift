import ArgumentParser
import ChatEvalWorkspace

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
        let job = GradeJob(output: output, reportOptions: report.options())
        if let answers {
            try job.gradeAnswers(answers, suitePath: inputs[0])
        } else {
            try job.regradeRun(inputs[0], suitePaths: Array(inputs.dropFirst()))
        }
    }
}
