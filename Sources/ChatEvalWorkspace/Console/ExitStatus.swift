/// The documented exit codes (`chateval --help` lists them).
package enum ExitStatus: Int32, Sendable {
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
