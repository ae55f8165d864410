import ChatEvalGit
import Foundation
import Testing

/// Reading commits other than HEAD: revisions, their description, and files from their tree.
@Suite struct CommitsTests {
    @Test func revisionsResolveToFullCommitIds() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let first = try await directory.commit("a.txt", "1", message: "First")
        let second = try await directory.commit("a.txt", "2", message: "Second")
        try await directory.git("tag", "v1", first)
        let repository = try GitRepository.discover(startingAt: directory.url)

        #expect(try repository.resolveCommit("HEAD") == second)
        #expect(try repository.resolveCommit("HEAD~1") == first)
        #expect(try repository.resolveCommit("main") == second)
        #expect(try repository.resolveCommit("v1") == first)
        #expect(try repository.resolveCommit(String(first.prefix(8))) == first)
        let unknown = try #require(throws: GitError.self) { try repository.resolveCommit("no-such-branch") }
        #expect(unknown.code == .notFound)
        #expect(unknown.description.contains("'no-such-branch' names no commit"))
    }

    @Test func anyCommitCanBeDescribed() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let first = try await directory.commit("a.txt", "1", message: "First commit")
        try await directory.git("tag", "v1", first)
        try await directory.commit("a.txt", "2", message: "Second")
        let snapshot = try GitRepository.discover(startingAt: directory.url).snapshot(ofCommit: "HEAD~1")
        #expect(snapshot.commit == first)
        #expect(snapshot.subject == "First commit")
        #expect(snapshot.describe == "v1")
        #expect(snapshot.branch == nil && !snapshot.isDirty)
    }

    @Test func filesAreReadFromTheCommitNotTheWorkingTree() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        _ = try directory.subdirectory("suites")
        try directory.write("name: old\n", to: "suites/a.yaml")
        try directory.write("x", to: "suites/b.yaml")
        try await directory.git("add", ".")
        try await directory.git("commit", "-q", "-m", "suites")
        try await directory.commit("suites/a.yaml", "name: new\n", message: "edit")
        try directory.write("name: uncommitted\n", to: "suites/a.yaml")
        let repository = try GitRepository.discover(startingAt: directory.url)

        #expect(try repository.file("suites/a.yaml", at: "HEAD~1") == Data("name: old\n".utf8))
        #expect(try repository.file("suites/a.yaml", at: "HEAD") == Data("name: new\n".utf8))
        #expect(try repository.file("suites/missing.yaml", at: "HEAD") == nil)
        #expect(try repository.file("suites", at: "HEAD") == nil)  // a folder is not a file
        #expect(try repository.files(inFolder: "suites", at: "HEAD") == ["a.yaml", "b.yaml"])
        #expect(try repository.files(inFolder: "nope", at: "HEAD") == nil)
        #expect(try repository.files(inFolder: "", at: "HEAD") == [])
        #expect(try String(contentsOf: directory.url.appendingPathComponent("suites/a.yaml"), encoding: .utf8) == "name: uncommitted\n")
    }
}
