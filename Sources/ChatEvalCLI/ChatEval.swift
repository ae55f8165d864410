import ArgumentParser
import ChatEvalLlama
import ChatEvalReport
import ChatEvalWorkspace
import Foundation

/// `chateval`: replay prompt suites against a chat runtime, measure every turn, grade the answers.
///
/// Exit codes: 0 success, 1 a gate failed or a regression, 2 bad input or usage (or sides not
/// comparable), 3 the run could not complete, 4 a comparison measured nothing on both sides (no
/// verdict), 5 no baseline run recorded, 130 stopped at once by a second Ctrl-C.
@main
struct ChatEval: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chateval",
        abstract: "Replay chat conversations against a model, measure every turn, grade the answers.",
        discussion: """
            Examples:
              chateval
                  run the suites of chateval.yaml (or suites/)
              chateval run suites/memory.yaml#pet-name
                  one conversation of one suite
              chateval run --model a.gguf --model b.gguf two models side by side
              chateval compare main HEAD
                  this commit against main's latest run
              chateval report HEAD --output run.html
                  this commit's latest run again, as a page
              chateval grade suite.yaml --answers a.jsonl
                  grade answers another tool produced

            Exit codes: 0 success; 1 a gate failed or a regression; 2 bad input or usage, or sides not \
            comparable; 3 the run could not complete (interrupted, results or a report file not writable); 4 a comparison \
            measured nothing on both sides (every replay disturbed or failed: no verdict); 5 no baseline \
            run recorded for a revision; 130 stopped at once by a second Ctrl-C (finished turns stay in \
            the journal).
            """,
        version: ChatEvalVersion.description,
        subcommands: [
            RunCommand.self, CompareCommand.self, ReportCommand.self, CalibrateCommand.self, MergeCommand.self, HistoryCommand.self,
            BisectCommand.self,
            IndexCommand.self, ValidateCommand.self, GradeCommand.self, RecoverCommand.self, TemplatesCommand.self, ImportCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )

    /// Parses and runs; usage errors exit with 2 (not ArgumentParser's 64) so that every kind of
    /// bad input has the same documented code.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            // From here an engine crash (its libraries' destructors at exit) keeps the exit earned.
            EngineCrashReport.setCommandFinished(status: 0)
        } catch let failure as CommandFailure {
            EngineCrashReport.setCommandFinished(status: failure.status.rawValue)
            if !failure.isSaid { complain(failure.errorLine) }
            exit(withError: ExitCode(failure.status.rawValue))
        } catch {
            let code = exitCode(for: error)
            EngineCrashReport.setCommandFinished(status: code == .validationFailure ? ExitStatus.badInput.rawValue : code.rawValue)
            // --help and --version print their own text.
            if error is ExitCode || code == .success { exit(withError: error) }
            // Everything else in ChatEval's voice ("chateval: error: ..."), not ArgumentParser's "Error: ...".
            var message = fullMessage(for: error)
            if message.hasPrefix("Error: ") { message = "chateval: error: " + message.dropFirst("Error: ".count) }
            FileHandle.standardError.write(Data((Terminal.safeLines(message) + "\n").utf8))
            exit(withError: code == .validationFailure ? ExitCode(ExitStatus.badInput.rawValue) : code)
        }
    }
}
