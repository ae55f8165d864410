import Foundation
import Testing

@testable import ChatEvalGit

/// Tests that point libgit2's system, XDG and global config at a file they write. That setting
/// is process-wide, so these tests run one at a time and restore the default afterwards.
/// ChatEvalGit's lock keeps the switch from racing other suites' libgit2 calls; those may read
/// the controlled config meanwhile, and none of them depends on user or system config.
@Suite(.serialized) struct GlobalConfigTests {
    static let foreignOwner = "12345"

    /// Runs `body` while libgit2 reads `globalConfig` as the only system/XDG/global config.
    private func withGlobalConfig(_ globalConfig: String, _ body: () throws -> Void) throws {
        let configDirectory = try TestDirectory()
        try configDirectory.write(globalConfig, to: ".gitconfig")
        try LibGit2.setConfigSearchDirectory(configDirectory.path)
        defer { try? LibGit2.setConfigSearchDirectory(nil) }
        try body()
    }

    /// A committed repository in `repo/`, then handed to another user (as in CI containers).
    private func makeForeignOwnedRepository(in directory: TestDirectory) async throws -> (path: String, commit: String) {
        try await directory.initRepository(in: "repo")
        let commit = try await directory.commit("a.txt", "1", message: "First", in: "repo")
        _ = try directory.subdirectory("repo/src")
        try await run("/usr/bin/env", ["chown", "-R", "\(Self.foreignOwner):\(Self.foreignOwner)", "repo"], in: directory.url)
        return (directory.path + "/repo", commit)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to hand a repository to another user"))
    func foreignOwnedRepositoryIsRefusedWithoutSafeDirectory() async throws {
        let directory = try TestDirectory()
        let repo = try await makeForeignOwnedRepository(in: directory)

        try withGlobalConfig("[safe]\n\tdirectory = /somewhere/else\n") {
            let error = try #require(throws: GitError.self) {
                try GitRepository.discover(startingAt: URL(fileURLWithPath: repo.path + "/src"))
            }
            #expect(error.code == .dubiousOwnership)
            #expect(error.path == repo.path)
            #expect(
                error.description
                    == "repository at \(repo.path) is owned by uid \(Self.foreignOwner), not by you (uid \(geteuid())); "
                    + "if you trust it run: git config --global --add safe.directory \(repo.path)"
            )
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to hand a repository to another user"))
    func foreignOwnedRepositoryOpensWithExactSafeDirectory() async throws {
        let directory = try TestDirectory()
        let repo = try await makeForeignOwnedRepository(in: directory)

        try withGlobalConfig("[safe]\n\tdirectory = \(repo.path)\n") {
            let repository = try GitRepository.discover(startingAt: URL(fileURLWithPath: repo.path + "/src"))
            #expect(try repository.snapshot().commit == repo.commit)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to hand a repository to another user"))
    func foreignOwnedRepositoryOpensWithWildcardAndValidationIsRestored() async throws {
        let directory = try TestDirectory()
        let repo = try await makeForeignOwnedRepository(in: directory)

        try withGlobalConfig("[safe]\n\tdirectory = *\n") {
            let repository = try GitRepository(path: URL(fileURLWithPath: repo.path))
            #expect(try repository.snapshot().commit == repo.commit)
        }
        try withGlobalConfig("") {
            let error = try #require(throws: GitError.self) {
                try GitRepository(path: URL(fileURLWithPath: repo.path))
            }
            #expect(error.code == .dubiousOwnership)
        }
    }

    @Test func noteFallsBackToChatEvalSignatureWithoutConfiguredUser() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let commit = try await directory.commit("a.txt", "1", message: "First")

        try withGlobalConfig("") {
            try GitRepository.discover(startingAt: directory.url).appendNote("hi", to: commit)
        }
        #expect(try await directory.git("log", "-1", "--format=%an <%ae>", "refs/notes/chateval") == "chateval <chateval@localhost>")
    }
}
