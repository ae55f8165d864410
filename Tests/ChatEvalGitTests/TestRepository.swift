import ChatEvalTestKit
import Foundation
import Testing

/// A temporary directory, removed when the value is released, with helpers to build fixture
/// repositories through the `git` command line (only the code under test uses libgit2).
final class TestDirectory {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("chateval-git-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside this directory, with parent directories created.
    func subdirectory(_ relativePath: String) throws -> URL {
        let directory = url.appendingPathComponent(relativePath, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Writes `text` to `relativePath` inside this directory.
    /// Writes `text` at `relativePath`, creating the folders on the way.
    func write(_ text: String, to relativePath: String) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Runs `git args…` in `relativePath` (default: this directory) and returns its trimmed output.
    /// Commits get a fixed identity and `date` (ISO 8601 with offset); user and system config are
    /// ignored so the host's git setup cannot change the fixture.
    @discardableResult
    func git(_ arguments: String..., in relativePath: String = ".", date: String = "2024-05-06T07:08:09+05:30")
        async throws -> String
    {
        try await run(
            "/usr/bin/env", ["git"] + arguments, in: url.appendingPathComponent(relativePath),
            environment: [
                "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_CONFIG_GLOBAL": "/dev/null",
                "GIT_AUTHOR_NAME": "Fixture Author",
                "GIT_AUTHOR_EMAIL": "author@example.com",
                "GIT_COMMITTER_NAME": "Fixture Committer",
                "GIT_COMMITTER_EMAIL": "committer@example.com",
                "GIT_AUTHOR_DATE": date,
                "GIT_COMMITTER_DATE": date,
            ])
    }

    /// Creates a repository on branch `main` in `relativePath`.
    func initRepository(in relativePath: String = ".") async throws {
        _ = try subdirectory(relativePath)
        try await git("init", "-q", "-b", "main", in: relativePath)
    }

    /// Writes `file` and commits it with `message`; returns the new commit id.
    @discardableResult
    func commit(
        _ file: String, _ contents: String, message: String, in relativePath: String = ".",
        date: String = "2024-05-06T07:08:09+05:30"
    ) async throws -> String {
        try write(contents, to: "\(relativePath)/\(file)")
        try await git("add", file, in: relativePath)
        try await git("commit", "-q", "-m", message, in: relativePath, date: date)
        return try await git("rev-parse", "HEAD", in: relativePath)
    }
}

struct CommandFailed: Error, CustomStringConvertible {
    let description: String
}

/// Runs a program and returns its standard output, trimmed; throws if it exits non-zero.
@discardableResult
func run(_ executable: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:])
    async throws -> String
{
    let outcome = try await ProcessRunner.run(URL(fileURLWithPath: executable), arguments, environment: environment, in: directory)
    guard outcome.status == 0 else {
        throw CommandFailed(description: "\(arguments.joined(separator: " ")) exited \(outcome.status): \(outcome.stderr)")
    }
    return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}
