import ChatEvalCore
import ChatEvalGit
import Foundation
import Testing

/// `ChatEval-Expect` trailers read through libgit2, over the commits a head adds to its base.
@Suite struct TrailersTests {
    @Test func theTrailersOfTheCommitsAfterTheBaseAreReadNewestFirst() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let base = try await directory.commit("a.txt", "1", message: "base\n\nChatEval-Expect: qa ttft worse")
        try await directory.commit("a.txt", "2", message: "no trailer\n\nChatEval-Expected: not this one")
        try await directory.commit(
            "a.txt", "3",
            message: "longer prompt\n\nWhy it is longer.\n\nchateval-expect: qa evaluated-tokens worse\nSigned-off-by: A <a@b>")
        let head = try await directory.commit(
            "a.txt", "4", message: "two\n\nChatEval-Expect: * checks worse\nChatEval-Expect: qa ttft worse")
        let repository = try GitRepository.discover(startingAt: directory.url)
        let found = try repository.trailers(named: Expectation.trailerKey, from: head, after: base)
        // The base's own trailer is not the head's: three commits after it, newest first.
        #expect(found.map(\.commit.subject) == ["two", "longer prompt", "no trailer"])
        #expect(found.map(\.values) == [["* checks worse", "qa ttft worse"], ["qa evaluated-tokens worse"], []])
        #expect(try repository.trailers(named: Expectation.trailerKey, from: head, after: head).isEmpty)
    }

    /// A head on a branch forked from the base's line: the commits after their merge base.
    @Test func aForkedHeadReadsTheCommitsAfterTheMergeBase() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let fork = try await directory.commit("a.txt", "1", message: "fork point")
        try await directory.git("checkout", "-q", "-b", "topic")
        let head = try await directory.commit("t.txt", "1", message: "topic\n\nChatEval-Expect: qa ttft worse")
        try await directory.git("checkout", "-q", "main")
        let base = try await directory.commit("a.txt", "2", message: "main moved on\n\nChatEval-Expect: qa decode-tps worse")
        let repository = try GitRepository.discover(startingAt: directory.url)
        #expect(try repository.mergeBase(head, base) == fork)
        let found = try repository.trailers(named: Expectation.trailerKey, from: head, after: base)
        #expect(found.map(\.values) == [["qa ttft worse"]])
    }
}
