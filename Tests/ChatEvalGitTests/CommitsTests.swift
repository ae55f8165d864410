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

    /// What a commit changed of the given paths (files or folders), against its first parent: a
    /// history step's suspects are the commits that changed a run's inputs.
    @Test func theInputsACommitChangedAreListed() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let root = try await directory.commit("suites/smoke.yaml", "name: s", message: "A suite")
        let readme = try await directory.commit("README.md", "words", message: "Docs only")
        let suite = try await directory.commit("suites/smoke.yaml", "name: s2", message: "Change the suite")
        let project = try await directory.commit("chateval.yaml", "repetitions: 3", message: "Project file")
        let nested = try await directory.commit("suites/extra/deep.yaml", "name: d", message: "A nested suite")
        let repository = try GitRepository.discover(startingAt: directory.url)
        let inputs = ["chateval.yaml", "suites"]
        #expect(try repository.changedPaths(inputs, in: root) == ["suites/smoke.yaml"])  // against the empty tree
        #expect(try repository.changedPaths(inputs, in: readme) == [])
        #expect(try repository.changedPaths(inputs, in: suite) == ["suites/smoke.yaml"])
        #expect(try repository.changedPaths(inputs, in: project) == ["chateval.yaml"])
        #expect(try repository.changedPaths(inputs, in: nested) == ["suites/extra/deep.yaml"])
        #expect(try repository.changedPaths(["suite"], in: suite) == [])  // a prefix of a name is not its folder
        #expect(throws: GitError.self) { try repository.changedPaths(inputs, in: "no-such-commit") }
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
