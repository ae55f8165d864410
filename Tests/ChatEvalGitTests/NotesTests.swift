import ChatEvalGit
import Foundation
import Testing

@Suite struct NotesTests {
    @Test func laterRunsOfACommitAddLinesToItsNote() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let first = try await directory.commit("a.txt", "1", message: "First")
        let second = try await directory.commit("a.txt", "2", message: "Second")
        let repository = try GitRepository.discover(startingAt: directory.url)
        #expect(try repository.note(for: second) == nil)

        try repository.appendNote("{\"run\":1}", to: second)
        #expect(try repository.note(for: second) == "{\"run\":1}\n")
        #expect(try await directory.git("notes", "--ref=chateval", "show", second) == "{\"run\":1}")

        try repository.appendNote("{\"run\":2}\n", to: "HEAD")
        #expect(try repository.note(for: second) == "{\"run\":1}\n{\"run\":2}\n")
        #expect(try repository.note(for: first) == nil)
        #expect(try repository.note(for: second, notesRef: "refs/notes/commits") == nil)
        // Two notes commits on the ref: the history of runs is kept.
        #expect(try await directory.git("rev-list", "--count", "refs/notes/chateval") == "2")
    }

    @Test func concurrentWritersLoseNoNote() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let commit = try await directory.commit("a.txt", "1", message: "First")
        let path = directory.url

        // Writers with their own repository handles interleave between building a notes commit
        // and moving the ref; each must notice the others' moves and redo its append.
        let written = await withTaskGroup(of: [String].self) { group in
            for writer in 0..<4 {
                group.addTask {
                    guard let repository = try? GitRepository.discover(startingAt: path) else { return [] }
                    return (0..<10).compactMap { line in
                        let text = "run-\(writer)-\(line)"
                        return (try? repository.appendNote(text, to: commit)) != nil ? text : nil
                    }
                }
            }
            var all: [String] = []
            for await lines in group { all += lines }
            return all
        }
        #expect(written.count == 40)
        let note = try #require(try GitRepository.discover(startingAt: path).note(for: commit))
        let lines: Set<String> = Set(note.split(separator: "\n").map(String.init))
        #expect(lines == Set(written))
        #expect(try await directory.git("rev-list", "--count", "refs/notes/chateval") == "40")
    }

    @Test func noteUsesCustomRefAndAuthor() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let commit = try await directory.commit("a.txt", "1", message: "First")
        let repository = try GitRepository.discover(startingAt: directory.url)

        try repository.appendNote(
            "hello", to: commit, notesRef: "refs/notes/bench", author: GitSignature(name: "Bench Bot", email: "bot@example.com"))

        #expect(try repository.note(for: commit, notesRef: "refs/notes/bench") == "hello\n")
        #expect(try repository.note(for: commit) == nil)
        #expect(try await directory.git("log", "-1", "--format=%an <%ae>", "refs/notes/bench") == "Bench Bot <bot@example.com>")
    }

    @Test func noteAuthorComesFromRepositoryConfig() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let commit = try await directory.commit("a.txt", "1", message: "First")
        try await directory.git("config", "user.name", "Local User")
        try await directory.git("config", "user.email", "local@example.com")

        try GitRepository.discover(startingAt: directory.url).appendNote("hi", to: commit)

        #expect(try await directory.git("log", "-1", "--format=%an <%ae>", "refs/notes/chateval") == "Local User <local@example.com>")
    }

    @Test func noteOnUnknownCommitThrowsNotFound() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        try await directory.commit("a.txt", "1", message: "First")
        let repository = try GitRepository.discover(startingAt: directory.url)

        let error = try #require(throws: GitError.self) {
            try repository.appendNote("x", to: String(repeating: "0", count: 40))
        }
        #expect(error.code == .notFound)
        #expect(error.pointOfFailure == "git_revparse_single")
        #expect(error.description.contains("names no commit"))
    }

    @Test func noteOnRepositoryWithoutCommitsThrows() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let repository = try GitRepository.discover(startingAt: directory.url)

        let error = try #require(throws: GitError.self) { try repository.appendNote("x", to: "HEAD") }
        #expect(error.code == .unbornHead)
        #expect(error.description.contains("no commits yet"))
        #expect(error.description.contains(directory.path))
    }

    /// refs/notes/chateval pointing at a blob (written by hand, or by another tool): reading or
    /// adding a note is refused as that, naming the ref and how to remove it, before libgit2 reads
    /// notes out of the blob (which crashed `history` about one run in three).
    @Test func aNotesRefPointingAtABlobIsRefusedNamingTheFix() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let commit = try await directory.commit("a.txt", "1", message: "First")
        let blob = try await directory.git("hash-object", "-w", "a.txt")
        try await directory.git("update-ref", "refs/notes/chateval", blob)
        let repository = try GitRepository.discover(startingAt: directory.url)
        for attempt in [{ _ = try repository.note(for: commit) }, { try repository.appendNote("{}", to: commit) }] {
            let error = try #require(throws: GitError.self) { try attempt() }
            #expect(error.code == .notesRefNotACommit("refs/notes/chateval"))
            #expect(error.description.contains("refs/notes/chateval points at a blob"), "\(error)")
            #expect(error.description.contains("git update-ref -d refs/notes/chateval"), "\(error)")
        }
    }
}
