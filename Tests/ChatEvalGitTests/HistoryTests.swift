import ChatEvalCore
import ChatEvalGit
import Foundation
import Testing

/// The first-parent walk `chateval history` reads commits from, and the notes listing its index
/// uses to see what changed.
@Suite struct HistoryTests {
    /// main: A → B → M (merging topic: T1 → T2, branched from A) → C.
    private func repositoryWithAMerge() async throws -> (TestDirectory, [String: String]) {
        let directory = try TestDirectory()
        try await directory.initRepository()
        var ids: [String: String] = [:]
        ids["A"] = try await directory.commit("a.txt", "1", message: "A", date: "2024-01-01T00:00:00+00:00")
        try await directory.git("checkout", "-q", "-b", "topic")
        ids["T1"] = try await directory.commit("t.txt", "1", message: "T1", date: "2024-01-02T00:00:00+00:00")
        ids["T2"] = try await directory.commit("t.txt", "2", message: "T2", date: "2024-01-03T00:00:00+00:00")
        try await directory.git("checkout", "-q", "main")
        ids["B"] = try await directory.commit("a.txt", "2", message: "B", date: "2024-01-04T00:00:00+00:00")
        try await directory.git("merge", "-q", "--no-ff", "-m", "M", "topic", date: "2024-01-05T00:00:00+00:00")
        ids["M"] = try await directory.git("rev-parse", "HEAD")
        ids["C"] = try await directory.commit("a.txt", "3", message: "C subject\n\nbody", date: "2024-01-06T00:00:00+00:00")
        return (directory, ids)
    }

    @Test func firstParentHistoryListsTheMainLineNewestFirst() async throws {
        let (directory, ids) = try await repositoryWithAMerge()
        let history = try GitRepository.discover(startingAt: directory.url).firstParentHistory()
        #expect(history.map(\.id) == [ids["C"], ids["M"], ids["B"], ids["A"]].compactMap { $0 })
        #expect(history.first?.subject == "C subject")
        #expect(history.first?.shortId == String(ids["C"]!.prefix(7)))
        #expect(history.first?.time == ISO8601DateFormatter().date(from: "2024-01-06T00:00:00Z"))
    }

    @Test func sinceStopsAtItsCommitIncludingItAndMaxCountCuts() async throws {
        let (directory, ids) = try await repositoryWithAMerge()
        let repository = try GitRepository.discover(startingAt: directory.url)
        #expect(try repository.firstParentHistory(since: "HEAD~2").map(\.subject) == ["C subject", "M", "B"])
        #expect(try repository.firstParentHistory(maxCount: 2).map(\.subject) == ["C subject", "M"])
        #expect(try repository.firstParentHistory(since: ids["A"], maxCount: 2).map(\.subject) == ["C subject", "M"])
    }

    @Test func sinceOffTheFirstParentLineIsNotFoundAndSaysSo() async throws {
        let (directory, ids) = try await repositoryWithAMerge()
        let repository = try GitRepository.discover(startingAt: directory.url)
        let error = try #require(throws: GitError.self) { try repository.firstParentHistory(since: ids["T1"]) }
        #expect(error.code == .notFound)
        #expect(error.message.contains("is not on the first-parent history of HEAD"))
        let unknown = try #require(throws: GitError.self) { try repository.firstParentHistory(since: "no-such-tag") }
        #expect(unknown.code == .notFound)
        #expect(unknown.description.contains("'no-such-tag' names no commit"))
    }

    /// A clone at depth 2 of A → B → M → C (`actions/checkout` clones at depth 1): the walk failed
    /// at the missing parent ("git_revwalk_next: object not found"). Now it gives the two commits
    /// there are and says the history is cut there; a walk bounded before the cut is not cut.
    @Test func aShallowCloneIsWalkedToItsCut() async throws {
        let (directory, _) = try await repositoryWithAMerge()
        try await directory.git("clone", "-q", "--depth", "2", "file://\(directory.path)", "shallow")
        let repository = try GitRepository.discover(startingAt: directory.url.appendingPathComponent("shallow"))
        #expect(try repository.firstParentHistory().map(\.subject) == ["C subject", "M"])
        #expect(try repository.firstParentWalk(maxCount: 100).endsAtShallowCut)
        #expect(try !repository.firstParentWalk(maxCount: 2).endsAtShallowCut)
    }

    @Test func anEmptyRepositoryHasAnUnbornHead() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let error = try #require(throws: GitError.self) { try GitRepository.discover(startingAt: directory.url).firstParentHistory() }
        #expect(error.code == .unbornHead)
    }

    @Test func noteListingNamesEachNotesBlobAndChangesWithTheNote() async throws {
        let (directory, ids) = try await repositoryWithAMerge()
        let repository = try GitRepository.discover(startingAt: directory.url)
        #expect(try repository.noteListing() == NoteListing(tip: nil, notes: [:]))

        try repository.appendNote("one", to: ids["B"]!)
        let first = try repository.noteListing()
        #expect(first.tip == (try await directory.git("rev-parse", "refs/notes/chateval")))
        #expect(Array(first.notes.keys) == [ids["B"]!])
        #expect(try repository.blobText(first.notes[ids["B"]!]!) == "one\n")

        try repository.appendNote("two", to: ids["B"]!)
        try repository.appendNote("three", to: ids["C"]!)
        let second = try repository.noteListing()
        #expect(second.tip != first.tip)
        #expect(Set(second.notes.keys) == [ids["B"]!, ids["C"]!])
        #expect(second.notes[ids["B"]!] != first.notes[ids["B"]!])
        #expect(try repository.blobText(second.notes[ids["B"]!]!) == "one\ntwo\n")
    }
}
