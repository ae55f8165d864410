import ArgumentParser
import Foundation

/// `chateval`: replay prompt suites against a chat runtime, measure every turn, grade the answers.
///
/// Exit codes: 0 success, 1 a gate failed, 2 bad input or usage, 3 the run could not complete.
@main
struct ChatEval: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chateval",
        abstract: "Replay chat conversations against a model, measure every turn, grade the answers.",
        discussion: "Exit codes: 0 success, 1 a gate failed, 2 bad input or usage, 3 the run could not complete.",
        subcommands: [RunCommand.self, ValidateCommand.self, GradeCommand.self, TemplatesCommand.self],
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
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode(ExitStatus.badInput.rawValue))
            }
            exit(withError: error)
        }
    }
}

/// The documented exit codes.
enum ExitStatus: Int32 {
    case success = 0
    case gateFailed = 1
    case badInput = 2
    case runIncomplete = 3
}

/// Prints `message` as an error on stderr and returns the exit code to throw.
func failure(_ message: String, _ status: ExitStatus) -> ExitCode {
    FileHandle.standardError.write(Data("chateval: error: \(message)\n".utf8))
    return ExitCode(status.rawValue)
}
