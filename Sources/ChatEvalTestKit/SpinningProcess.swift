import Foundation

/// A shell spinning in its own loop (no command run, so its time is its own), for tests that need
/// another process keeping a core busy. `stop()` kills it with SIGKILL and reaps it: after
/// SIGTERM (`Process.terminate()`) such a shell went on spinning, long after its test (2026-11-30).
public final class SpinningProcess {
    private let process = Process()

    /// Starts the shell.
    public init() throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "while :; do :; done"]
        try process.run()
    }

    public var pid: Int { Int(process.processIdentifier) }

    /// Kills and reaps the shell.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
