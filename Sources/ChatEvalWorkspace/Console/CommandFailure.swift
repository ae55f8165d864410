import ChatEvalCore
import ChatEvalReport
import Foundation

/// Why a command ends without success: what to tell the user, and the documented exit code.
/// Thrown by the workspace and the commands; only the command line's entry point prints it
/// ("chateval: error: …", control characters shown escaped, secrets redacted) and exits with it.
package struct CommandFailure: Error, CustomStringConvertible, Sendable {
    package var message: String
    package var status: ExitStatus
    /// Printed already, where it happened (a report that could not be written, said before the
    /// run's last lines): the entry point then only exits with `status`.
    package var isSaid = false

    package init(_ message: String, _ status: ExitStatus) {
        self.message = message
        self.status = status
    }

    /// Prints the failure now and returns it marked as said, to be thrown later.
    package func sayNow() -> CommandFailure {
        complain(errorLine)
        var said = self
        said.isSaid = true
        return said
    }

    package var description: String { message }

    /// The line the entry point prints on standard error.
    package var errorLine: String { "chateval: error: \(message)" }
}

/// A failure to throw: `throw failure("…; do this", .badInput)`.
package func failure(_ message: String, _ status: ExitStatus) -> CommandFailure {
    CommandFailure(message, status)
}

/// "; did you mean suites/smoke.yaml?" for a path that does not exist but nearly does, else "".
func nearPathHint(_ path: String) -> String {
    nearestPath(to: path) { try? FileManager.default.contentsOfDirectory(atPath: $0) }.map { "; did you mean \($0)?" } ?? ""
}
