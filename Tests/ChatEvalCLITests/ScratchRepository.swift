import ChatEvalTestKit
import Foundation

/// A git repository in a new temporary folder (with a `suites` folder), removed with its owner:
/// files written, git run in it, commits made and remembered oldest first.
class ScratchRepository {
    let root: URL
    private(set) var commits: [String] = []

    init(prefix: String) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("suites"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func write(_ path: String, _ text: String) throws {
        try text.write(to: root.appendingPathComponent(path), atomically: true, encoding: .utf8)
    }

    @discardableResult
    func git(_ arguments: String...) async throws -> String {
        let outcome = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/git"), ["-C", root.path, "-c", "user.name=t", "-c", "user.email=t@t"] + arguments)
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Commits everything under `message`.
    func commit(_ message: String) async throws {
        try await git("add", "-A")
        try await git("commit", "-q", "-m", message)
        commits.append(try await git("rev-parse", "HEAD"))
    }
}
