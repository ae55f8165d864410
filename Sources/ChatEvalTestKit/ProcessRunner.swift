import Foundation
internal import Subprocess
internal import SystemPackage

/// Runs programs for tests — the `chateval` binary, `git`, a shell — collecting standard output
/// and standard error together (swift-subprocess reads both at once, so a program that fills
/// one pipe while the test reads the other cannot deadlock).
public enum ProcessRunner {
    public struct Outcome: Sendable {
        /// The exit code, or 128 + the signal number for a process killed by a signal (as a shell shows it).
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The process while it runs, for tests that interrupt it.
    public struct Running: Sendable {
        public var processIdentifier: Int32

        /// Sends `signal` (SIGINT, SIGTERM, SIGKILL...).
        public func send(_ signal: Int32) {
            kill(processIdentifier, signal)
        }
    }

    /// Runs `executable` with `arguments` to the end. `environment` adds to (or overrides) the
    /// test's own; `directory` is the working directory (default: the test's).
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil
    ) async throws -> Outcome {
        try await run(executable, arguments, environment: environment, in: directory) { _ in }
    }

    /// Runs `executable`, calling `body` while it runs (to wait for something, then signal it),
    /// and returns once it ended.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        while body: @escaping @Sendable (Running) async throws -> Void
    ) async throws -> Outcome {
        let overrides = Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(stringLiteral: $0.key), Optional($0.value)) })
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(arguments), environment: .inherit.updating(overrides),
            workingDirectory: directory.map { FilePath($0.path) }, input: .none,
            output: .string(limit: 64 << 20), error: .string(limit: 64 << 20)
        ) { execution in
            try await body(Running(processIdentifier: execution.processIdentifier.value))
        }
        let status: Int32 = switch result.terminationStatus {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
        return Outcome(status: status, stdout: result.standardOutput, stderr: result.standardError)
    }
}
