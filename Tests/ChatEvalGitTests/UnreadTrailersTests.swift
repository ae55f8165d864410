import ChatEvalCore
import ChatEvalGit
import Foundation
import Testing

/// One line of prose in a commit's trailer paragraph: libgit2 (as `git interpret-trailers`) then
/// reads no trailer of the commit at all, and nothing said so (issue 47).
@Suite struct UnreadTrailersTests {
    @Test func aLineOfProseInTheTrailerParagraphIsNamedWithEveryTrailerItDrops() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let base = try await directory.commit("a.txt", "1", message: "base")
        let head = try await directory.commit(
            "a.txt", "2",
            message: "longer prompt\n\nWhy.\n\nChatEval-Expect: qa ttft worse +15%\nThis makes the prompt longer on purpose.\n"
                + "chateval-expect: qa evaluated-tokens worse +3")
        let repository = try GitRepository.discover(startingAt: directory.url)
        #expect(try repository.trailers(named: Expectation.trailerKey, from: head, after: base).map(\.values) == [[]], "git reads none")
        let unread = try #require(try repository.unreadTrailers(named: Expectation.trailerKey, ofCommit: head))
        #expect(unread.lines == ["ChatEval-Expect: qa ttft worse +15%", "chateval-expect: qa evaluated-tokens worse +3"])
        #expect(unread.reason.contains("\"This makes the prompt longer on purpose.\", which is not a trailer"), "\(unread.reason)")
    }

    @Test func aTrailerOutsideTheLastParagraphIsNamed() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let head = try await directory.commit(
            "a.txt", "1", message: "subject\n\nChatEval-Expect: qa ttft worse\n\nA closing paragraph.\n\nSigned-off-by: A <a@b>")
        let repository = try GitRepository.discover(startingAt: directory.url)
        let unread = try #require(try repository.unreadTrailers(named: Expectation.trailerKey, ofCommit: head))
        #expect(unread.lines == ["ChatEval-Expect: qa ttft worse"])
        #expect(unread.reason.contains("not in the message's last paragraph"))
    }

    /// Trailers git reads, and a subject that merely looks like one, are not named.
    @Test func readTrailersAndTheSubjectAreNotNamed() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let read = try await directory.commit(
            "a.txt", "1", message: "ChatEval-Expect: in the subject\n\nBody.\n\nChatEval-Expect: qa ttft worse\nSigned-off-by: A <a@b>")
        let repository = try GitRepository.discover(startingAt: directory.url)
        #expect(try repository.unreadTrailers(named: Expectation.trailerKey, ofCommit: read) == nil)
    }
}
