import ArgumentParser
import ChatEvalCore
import ChatEvalGit
import ChatEvalLlama
import ChatEvalReport
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
        } catch {
            let code = exitCode(for: error)
            // ChatEval's own failures printed their message already; --help and --version print theirs.
            if error is ExitCode || code == .success { exit(withError: error) }
            // Everything else in ChatEval's voice ("chateval: error: ..."), not ArgumentParser's "Error: ...".
            var message = fullMessage(for: error)
            if message.hasPrefix("Error: ") { message = "chateval: error: " + message.dropFirst("Error: ".count) }
            FileHandle.standardError.write(Data((Terminal.safeLines(message) + "\n").utf8))
            exit(withError: code == .validationFailure ? ExitCode(ExitStatus.badInput.rawValue) : code)
        }
    }
}

/// What `chateval --version` prints: ChatEval's version and the native libraries it runs on.
enum ChatEvalVersion {
    /// ChatEval's own version (semantic versioning; raised with each tagged release).
    static let number = "0.1.0"

    static var description: String {
        let build = EngineBuild.currentName.map { "\($0), " } ?? ""
        return "chateval \(number) (llama.cpp: \(build)\(llamaLibraryVersion); libgit2 \(libgit2Version))"
    }
}

/// Writes `text` and a line break to standard output at once, control characters and escape
/// sequences shown, not obeyed (`Terminal.safeLines`): model answers, user messages, suite names
/// and commit subjects all pass here. The command line writes through this, never `print`, whose
/// C stream is block-buffered into a pipe: in a CI log the header and each result appear as they
/// happen, in order with standard error. (Swift 6 does not let code name C's `stdout`.)
func say(_ text: String = "", styled: Bool = false) {
    var safe = Terminal.safeLines(Secrets.redact(text))
    if styled && colorsWanted { safe = Terminal.colorMarks(safe) }
    FileHandle.standardOutput.write(Data((safe + "\n").utf8))
}

/// Colour for ✓ and ✗ only on a terminal, and never when `NO_COLOR` is set (no-color.org) or
/// the terminal is dumb: a CI log or a file gets plain text.
let colorsWanted: Bool = {
    let environment = ProcessInfo.processInfo.environment
    return isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
}()

/// Writes lines to standard error, control characters shown escaped (as `say` does).
func complain(_ text: String) {
    FileHandle.standardError.write(Data((Terminal.safeLines(Secrets.redact(text)) + "\n").utf8))
}

/// Writes JSON to standard output, still the same JSON, with nothing a terminal would obey.
func sayJSON(_ json: String) {
    FileHandle.standardOutput.write(Data((Terminal.safeJSON(Secrets.redact(json)) + "\n").utf8))
}

/// The documented exit codes.
enum ExitStatus: Int32 {
    case success = 0
    case gateFailed = 1
    case badInput = 2
    case runIncomplete = 3
    case noVerdict = 4
    case baselineMissing = 5
    /// The llama.cpp engine cannot run on this machine (built for instructions its CPU lacks).
    case engineCannotRun = 6
    case stoppedAtOnce = 130
}

/// "; did you mean suites/smoke.yaml?" for a path that does not exist but nearly does, else "".
func nearPathHint(_ path: String) -> String {
    nearestPath(to: path) { try? FileManager.default.contentsOfDirectory(atPath: $0) }.map { "; did you mean \($0)?" } ?? ""
}

/// Prints `message` as an error on stderr (control characters shown escaped) and returns the
/// exit code to throw.
func failure(_ message: String, _ status: ExitStatus) -> ExitCode {
    FileHandle.standardError.write(Data("chateval: error: \(Terminal.safeLines(Secrets.redact(message)))\n".utf8))
    return ExitCode(status.rawValue)
}
