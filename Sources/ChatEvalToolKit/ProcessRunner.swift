import Foundation
internal import Subprocess
internal import SystemPackage

/// The one way tests and benches run a program — the `chateval` binary, `git`, llama-bench, a
/// shell — collecting standard output and standard error together (swift-subprocess reads both at
/// once, so a program that fills one pipe while the caller reads the other cannot deadlock).
public enum ProcessRunner {
    public struct Outcome: Sendable {
        /// The exit code, or 128 + the signal number for a process killed by a signal (as a shell shows it).
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The process while it runs, for callers that interrupt it.
    public struct Running: Sendable {
        public var processIdentifier: Int32

        /// Sends `signal` (SIGINT, SIGTERM, SIGKILL...).
        public func send(_ signal: Int32) {
            kill(processIdentifier, signal)
        }
    }

    /// Runs `executable` with `arguments` to the end. `environment` adds to (or overrides) the
    /// caller's own; `directory` is the working directory (default: the caller's).
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
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(arguments), environment: updated(environment),
            workingDirectory: directory.map { FilePath($0.path) }, input: .none,
            output: .string(limit: 64 << 20), error: .string(limit: 64 << 20)
        ) { execution in
            try await body(Running(processIdentifier: execution.processIdentifier.value))
        }
        return Outcome(status: status(result.terminationStatus), stdout: result.standardOutput, stderr: result.standardError)
    }

    /// Runs `executable` for the length of `body`, its standard output and error appended to the
    /// file `log`, and stops it when `body` returns or throws: SIGTERM, then SIGKILL after
    /// `grace` (a server, a background load). Returns what `body` returned.
    public static func during<T: Sendable>(
        _ executable: URL, _ arguments: [String], log: URL, grace: Duration = .seconds(5),
        body: (Running) async throws -> T
    ) async throws -> T {
        let file = try FileDescriptor.open(FilePath(log.path), .writeOnly, options: [.create, .append], permissions: [.ownerReadWrite])
        defer { try? file.close() }
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)), arguments: Arguments(arguments), input: .none,
            output: .fileDescriptor(file, closeAfterSpawningProcess: false),
            error: .fileDescriptor(file, closeAfterSpawningProcess: false)
        ) { execution -> Result<T, any Error> in
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await body(Running(processIdentifier: execution.processIdentifier.value)))
            } catch {
                outcome = .failure(error)
            }
            await execution.teardown(using: [.gracefulShutDown(allowedDurationToNextStep: grace)])
            return outcome
        }
        return try result.closureResult.get()
    }

    private static func updated(_ environment: [String: String]) -> Environment {
        .inherit.updating(
            Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(stringLiteral: $0.key), Optional($0.value)) }))
    }

    private static func status(_ termination: TerminationStatus) -> Int32 {
        switch termination {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }
}
