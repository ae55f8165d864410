import ChatEvalCore
import ChatEvalRunner
import Foundation
import Testing

/// A comparison's declared expectations read through `CommitTrailers`: what is asked of the
/// repository, trailers read or named as ignored, and a history that cannot be read.
@Suite struct DeclaredExpectationsTests {
    /// A repository of scripted trailers that records what it was asked.
    final class ScriptedTrailers: CommitTrailers {
        var commits: [(commit: CommitSummary, values: [String])]
        var failure: (any Error)?
        private(set) var asked: [String] = []

        init(_ commits: [(commit: CommitSummary, values: [String])], failure: (any Error)? = nil) {
            self.commits = commits
            self.failure = failure
        }

        func trailers(named key: String, from head: String, after base: String, maxCount: Int) throws
            -> [(commit: CommitSummary, values: [String])]
        {
            asked.append("\(key) \(base)..\(head) \(maxCount)")
            if let failure { throw failure }
            return commits
        }
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "object not found" }
    }

    private func commit(_ shortId: String) -> CommitSummary {
        CommitSummary(id: shortId + String(repeating: "0", count: 33), shortId: shortId, subject: "s", time: Date(timeIntervalSince1970: 0))
    }

    @Test func theHeadsTrailersAreReadAndOnesThatDoNotReadAreNamed() {
        let repository = ScriptedTrailers([
            (commit("bbbbbbb"), ["qa ttft worse", "qa ttft sideways"]), (commit("aaaaaaa"), ["* evaluated-tokens worse"]),
        ])
        let declared = DeclaredExpectations(repository: repository, base: "base", head: "head")
        #expect(repository.asked == ["ChatEval-Expect base..head \(DeclaredExpectations.maxCommits)"])
        #expect(declared.expectations.map { "\($0.commit) \($0)" } == ["bbbbbbb qa ttft worse", "aaaaaaa * evaluated-tokens worse"])
        #expect(declared.warnings.count == 1)
        #expect(declared.warnings.first?.hasPrefix("commit bbbbbbb: ChatEval-Expect: ") == true)
        #expect(declared.warnings.first?.hasSuffix("; this trailer is ignored") == true)
    }

    @Test func nothingIsAskedForTheSameCommitAndAnUnreadableHistoryIsAWarning() {
        let repository = ScriptedTrailers([(commit("aaaaaaa"), ["qa ttft worse"])])
        #expect(DeclaredExpectations(repository: repository, base: "same", head: "same").expectations.isEmpty)
        #expect(DeclaredExpectations(repository: repository, base: nil, head: "head").expectations.isEmpty)
        #expect(repository.asked.isEmpty)
        let unreadable = DeclaredExpectations(repository: ScriptedTrailers([], failure: Unreadable()), base: "base", head: "head")
        #expect(unreadable.expectations.isEmpty)
        #expect(
            unreadable.warnings == ["ChatEval-Expect trailers were not read (object not found); every regression fails the comparison"])
    }
}
