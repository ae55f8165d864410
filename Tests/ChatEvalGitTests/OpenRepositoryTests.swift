import Foundation
import Testing

@testable import ChatEvalGit

@Suite struct OpenRepositoryTests {
    @Test func discoverOutsideAnyRepositoryThrowsNotARepository() async throws {
        let directory = try TestDirectory()
        let error = try #require(throws: GitError.self) {
            try GitRepository.discover(startingAt: directory.url)
        }
        #expect(error.code == .notARepository)
        #expect(error.pointOfFailure == "git_repository_open_ext")
        #expect(error.path == directory.path)
        #expect(error.description.contains(directory.path))
        #expect(error.description.contains("git init"))
    }

    @Test func discoverFromSubdirectoryFindsTheWorkingTree() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let nested = try directory.subdirectory("src/deep")

        let repository = try GitRepository.discover(startingAt: nested)

        #expect(repository.workdir == (try await directory.git("rev-parse", "--show-toplevel")))
        #expect(repository.gitDirectory == directory.path + "/.git")
    }

    @Test func openingASubdirectoryByPathDoesNotSearchParents() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let nested = try directory.subdirectory("src")

        let error = try #require(throws: GitError.self) { try GitRepository(path: nested) }
        #expect(error.code == .notARepository)
        #expect(try GitRepository(path: directory.url).workdir == directory.path)
    }
}

@Suite struct SafeDirectoryRuleTests {
    @Test(arguments: [
        (["/srv/repo"], true),
        (["/srv/repo/"], true),
        (["*"], true),
        (["/srv/repo2"], false),
        (["/srv"], false),
        ([], false),
        (["*", ""], false),
        (["", "/srv/repo"], true),
    ])
    func trusts(values: [String], expected: Bool) {
        #expect(SafeDirectory.trusts("/srv/repo", values: values) == expected)
    }
}
