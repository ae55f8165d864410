import Foundation
import Testing
import ChatEvalGit

@Suite struct NotesTests {
    @Test func noteRoundTripsAndOverwrites() throws {
        let directory = try TestDirectory()
        try directory.initRepository()
        let first = try directory.commit("a.txt", "1", message: "First")
        let second = try directory.commit("a.txt", "2", message: "Second")
        let repository = try GitRepository.discover(startingAt: directory.url)
        #expect(try repository.note(for: second) == nil)

        try repository.addNote("{\"run\":1}", to: second)
        #expect(try repository.note(for: second) == "{\"run\":1}")
        #expect(try directory.git("notes", "--ref=chateval", "show", second) == "{\"run\":1}")

        try repository.addNote("{\"run\":2}", to: "HEAD")
        #expect(try repository.note(for: second) == "{\"run\":2}")
        #expect(try repository.note(for: first) == nil)
        #expect(try repository.note(for: second, notesRef: "refs/notes/commits") == nil)
    }

    @Test func noteUsesCustomRefAndAuthor() throws {
        let directory = try TestDirectory()
        try directory.initRepository()
        let commit = try directory.commit("a.txt", "1", message: "First")
        let repository = try GitRepository.discover(startingAt: directory.url)

        try repository.addNote(
            "hello", to: commit, notesRef: "refs/notes/bench", author: GitSignature(name: "Bench Bot", email: "bot@example.com"))

        #expect(try repository.note(for: commit, notesRef: "refs/notes/bench") == "hello")
        #expect(try repository.note(for: commit) == nil)
        #expect(try directory.git("log", "-1", "--format=%an <%ae>", "refs/notes/bench") == "Bench Bot <bot@example.com>")
    }

    @Test func noteAuthorComesFromRepositoryConfig() throws {
        let directory = try TestDirectory()
        try directory.initRepository()
        let commit = try directory.commit("a.txt", "1", message: "First")
        try directory.git("config", "user.name", "Local User")
        try directory.git("config", "user.email", "local@example.com")

        try GitRepository.discover(startingAt: directory.url).addNote("hi", to: commit)

        #expect(try directory.git("log", "-1", "--format=%an <%ae>", "refs/notes/chateval") == "Local User <local@example.com>")
    }

    @Test func noteOnUnknownCommitThrowsNotFound() throws {
        let directory = try TestDirectory()
        try directory.initRepository()
        try directory.commit("a.txt", "1", message: "First")
        let repository = try GitRepository.discover(startingAt: directory.url)

        let error = try #require(throws: GitError.self) {
            try repository.addNote("x", to: String(repeating: "0", count: 40))
        }
        #expect(error.code == .notFound)
        #expect(error.pointOfFailure == "git_revparse_single")
    }

    @Test func noteOnRepositoryWithoutCommitsThrows() throws {
        let directory = try TestDirectory()
        try directory.initRepository()
        let repository = try GitRepository.discover(startingAt: directory.url)

        let error = try #require(throws: GitError.self) { try repository.addNote("x", to: "HEAD") }
        #expect(error.code == .unbornHead)
        #expect(error.description.contains("no commits yet"))
        #expect(error.description.contains(directory.path))
    }
}
