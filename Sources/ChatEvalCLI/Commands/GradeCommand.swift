import ArgumentParser
import ChatEvalReport
import ChatEvalRunner
import ChatEvalStore
import ChatEvalSuites
import Foundation

struct GradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grade",
        abstract: "Grade given answers against a suite's checks, without a model.",
        discussion: """
            The answers file is JSON Lines, one turn per line:
              {"conversation": "capital", "turn": 1, "answer": "Paris.", "metrics": {...}, "failure": {"code": "context_overflow", "message": "..."}}
            turn is 1-based; metrics (as in result files) and failure are optional. Exit codes: 0 gates passed, 1 a gate failed, 2 bad input.
            """)

    @Argument(help: ArgumentHelp("The suite file.", valueName: "suite")) var suitePath: String
    @Option(help: ArgumentHelp("JSON Lines file of answers.", valueName: "file")) var answers: String
    @Option(help: ArgumentHelp("Also write the graded turns as JSON (the suite part of a result file).", valueName: "file")) var output: String?
    @Flag(name: .customLong("show-answers"), help: "Print every answer in full.") var showAnswers = false

    func run() throws {
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
            conversation.turns.forEach { say(AnswerLines.render($0, full: showAnswers, indent: "    ")) }
            conversation.checks.forEach { say(VerdictLine.render($0, indent: "    conversation ")) }
        }
        say("\n" + GateReport.render(verdicts: record.measuredVerdicts, gates: record.gates, indent: "  "))
        if let output {
            do {
                try AtomicFile.write(try ResultWriter.makeEncoder(pretty: true).encode(record), to: URL(fileURLWithPath: output))
            } catch {
                throw failure("cannot write \(error)", .runIncomplete)
            }
        }
        if record.gates.contains(where: { !$0.passed }) { throw failure("gate failed", .gateFailed) }
    }
}
