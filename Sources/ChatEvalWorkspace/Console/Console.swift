import ChatEvalCore
import ChatEvalReport
import Foundation

/// Writes `text` and a line break to standard output at once, control characters and escape
/// sequences shown, not obeyed (`Terminal.safeLines`): model answers, user messages, suite names
/// and commit subjects all pass here. Commands write through this, never `print`, whose
/// C stream is block-buffered into a pipe: in a CI log the header and each result appear as they
/// happen, in order with standard error. (Swift 6 does not let code name C's `stdout`.)
package func say(_ text: String = "", styled: Bool = false) {
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
package func complain(_ text: String) {
    FileHandle.standardError.write(Data((Terminal.safeLines(Secrets.redact(text)) + "\n").utf8))
}

/// Writes JSON to standard output, still the same JSON, with nothing a terminal would obey.
func sayJSON(_ json: String) {
    FileHandle.standardOutput.write(Data((Terminal.safeJSON(Secrets.redact(json)) + "\n").utf8))
}

/// "chateval: warning: …" on standard error.
package func warn(_ message: String) {
    complain("chateval: warning: \(message)")
}
