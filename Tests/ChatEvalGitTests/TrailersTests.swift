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

    /// A branch merged with `git merge --no-ff`: the merge's first parent is the base, and the
    /// trailers are on the merged branch's commits. Before, only the first-parent line was read:
    /// the merge commit alone, and no trailer.
    @Test func aNoFastForwardMergeReadsTheMergedBranchsCommits() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let base = try await directory.commit("a.txt", "1", message: "base")
        try await directory.git("checkout", "-q", "-b", "feature")
        try await directory.commit("s.txt", "1", message: "longer prompt\n\nChatEval-Expect: qa evaluated-tokens worse +3")
        try await directory.commit("s.txt", "2", message: "longer still\n\nChatEval-Expect: qa ttft worse +15%")
        try await directory.git("checkout", "-q", "main")
        try await directory.git("merge", "-q", "--no-ff", "--no-edit", "feature")
        let merge = try await directory.git("rev-parse", "HEAD")
        let repository = try GitRepository.discover(startingAt: directory.url)
        let found = try repository.trailers(named: Expectation.trailerKey, from: merge, after: base)
        #expect(found.map(\.commit.subject) == ["Merge branch 'feature'", "longer still", "longer prompt"])
        #expect(found.map(\.values) == [[], ["qa ttft worse +15%"], ["qa evaluated-tokens worse +3"]])
        #expect(found.map(\.isMerge) == [true, false, false])
    }

    /// What `actions/checkout` checks out for a pull request: a merge commit of the pull
    /// request's head into the base's tip, the base its first parent, the base moved on since the
    /// branch forked. Its commits are the pull request's own: not the base's, not the fork point's.
    @Test func aPullRequestsMergeCommitReadsThePullRequestsOwnCommits() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        try await directory.commit("a.txt", "1", message: "fork point\n\nChatEval-Expect: qa answers worse")
        try await directory.git("checkout", "-q", "-b", "topic")
        try await directory.commit("t.txt", "1", message: "topic\n\nChatEval-Expect: qa ttft worse +10%", date: "2024-05-07T07:08:09+05:30")
        try await directory.git("checkout", "-q", "main")
        let base = try await directory.commit(
            "a.txt", "2", message: "main moved on\n\nChatEval-Expect: qa decode-tps worse", date: "2024-05-08T07:08:09+05:30")
        try await directory.git("checkout", "-q", "--detach", base)
        try await directory.git("merge", "-q", "--no-ff", "-m", "Merge abc into def", "topic", date: "2024-05-09T07:08:09+05:30")
        let merge = try await directory.git("rev-parse", "HEAD")
        #expect(try await directory.git("rev-parse", "HEAD^1") == base)
        let repository = try GitRepository.discover(startingAt: directory.url)
        let found = try repository.trailers(named: Expectation.trailerKey, from: merge, after: "main")
        #expect(found.map(\.commit.subject) == ["Merge abc into def", "topic"])
        #expect(found.map(\.values) == [[], ["qa ttft worse +10%"]])
        // At most `maxCount` commits, newest first.
        #expect(
            try repository.trailers(named: Expectation.trailerKey, from: merge, after: "main", maxCount: 1).map(\.commit.subject) == [
                "Merge abc into def"
            ])
    }

    /// A shallow clone that lacks the commits between base and head (`actions/checkout` clones at
    /// depth 1 unless told): the walk cannot see them, and says how to fetch them. Before, the
    /// first-parent walk read the merge commit alone and said nothing.
    @Test func aShallowCloneWithoutThePullRequestsCommitsSaysSo() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository(in: "origin")
        try await directory.commit("a.txt", "1", message: "base", in: "origin")
        try await directory.git("checkout", "-q", "-b", "feature", in: "origin")
        try await directory.commit("s.txt", "1", message: "one\n\nChatEval-Expect: qa ttft worse +10%", in: "origin")
        try await directory.commit("s.txt", "2", message: "two", in: "origin")
        try await directory.git("checkout", "-q", "main", in: "origin")
        try await directory.git("merge", "-q", "--no-ff", "--no-edit", "feature", in: "origin")
        try await directory.git("clone", "-q", "--depth", "2", "file://\(directory.path)/origin", "shallow")
        let repository = try GitRepository.discover(startingAt: directory.url.appendingPathComponent("shallow"))
        let error = try #require(throws: GitError.self) {
            try repository.trailers(named: Expectation.trailerKey, from: "HEAD", after: "HEAD^1")
        }
        #expect(error.code == .notFound)
        #expect(error.message.contains("this shallow clone does not hold every commit between HEAD^1 and HEAD"), "\(error.message)")
    }
}
