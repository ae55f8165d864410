import ChatEvalCore
import ChatEvalRunner
import Foundation
import Testing

/// A comparison's declared expectations read through `CommitTrailers`: what is asked of the
/// repository, trailers read or named as ignored, which commits change the inputs, and a history
/// that cannot be read.
@Suite struct DeclaredExpectationsTests {
    /// A repository of scripted commits (with the input paths each changed) that records what it was asked.
    final class ScriptedTrailers: CommitTrailers {
        var commits: [(commit: CommitSummary, isMerge: Bool, values: [String])]
        var changed: [String: [String]]
        var failure: (any Error)?
        private(set) var asked: [String] = []

        init(
            _ commits: [(commit: CommitSummary, isMerge: Bool, values: [String])], changed: [String: [String]] = [:],
            failure: (any Error)? = nil
        ) {
            self.commits = commits
            self.changed = changed
            self.failure = failure
        }

        func addedCommits(trailer key: String, head: String, base: String, maxCount: Int) throws
            -> [(commit: CommitSummary, isMerge: Bool, values: [String])]
        {
            asked.append("\(key) \(base)..\(head) \(maxCount)")
            if let failure { throw failure }
            return commits
        }

        /// Commit (short id) → lines git did not read as trailers, and why.
        var unread: [String: (lines: [String], reason: String)] = [:]

        func unreadTrailers(_ key: String, in commit: String) throws -> (lines: [String], reason: String)? {
            unread[String(commit.prefix(7))]
        }

        func changedPaths(_ paths: [String], in commit: String) throws -> [String] {
            asked.append("changed \(paths.joined(separator: ",")) \(commit.prefix(7))")
            guard let files = changed[String(commit.prefix(7))] else { throw Unreadable() }
            return files.filter { file in paths.contains { file == $0 || file.hasPrefix($0 + "/") } }
        }
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "object not found" }
    }

    private func commit(_ shortId: String) -> CommitSummary {
        CommitSummary(id: shortId + String(repeating: "0", count: 33), shortId: shortId, subject: "s", time: Date(timeIntervalSince1970: 0))
    }

    @Test func theHeadsTrailersAreReadAndOnesThatDoNotReadAreNamed() {
        let repository = ScriptedTrailers(
            [
                (commit("bbbbbbb"), false, ["qa ttft worse +10%", "qa ttft sideways"]),
                (commit("aaaaaaa"), false, ["* evaluated-tokens worse +3"]),
            ], changed: ["bbbbbbb": ["suites/qa.yaml"], "aaaaaaa": []])
        let declared = DeclaredExpectations(repository: repository, base: "base", head: "head", inputs: ["suites"])
        #expect(repository.asked.first == "ChatEval-Expect base..head \(DeclaredExpectations.maxCommits)")
        #expect(
            declared.expectations.map { "\($0.commit) \($0)" } == ["bbbbbbb qa ttft worse +10%", "aaaaaaa * evaluated-tokens worse +3"])
        #expect(declared.warnings.count == 1)
        #expect(declared.warnings.first?.hasPrefix("commit bbbbbbb: ChatEval-Expect: ") == true)
        #expect(declared.warnings.first?.hasSuffix("; this trailer is ignored") == true)
    }

    /// A commit whose trailer paragraph holds a line of prose: git reads none of its trailers,
    /// and without a warning the expected change would fail the comparison unexplained (issue 47).
    @Test func trailersGitDoesNotReadAreNamed() {
        let repository = ScriptedTrailers([(commit("bbbbbbb"), false, []), (commit("aaaaaaa"), false, [])])
        repository.unread = [
            "bbbbbbb": (["ChatEval-Expect: qa ttft worse", "ChatEval-Expect: qa checks:contains worse"], "the paragraph holds prose")
        ]
        let declared = DeclaredExpectations(repository: repository, base: "base", head: "head", inputs: nil)
        #expect(declared.expectations.isEmpty)
        #expect(
            declared.warnings == [
                "commit bbbbbbb: \"ChatEval-Expect: qa ttft worse\" and 1 more are not read as ChatEval-Expect trailers: "
                    + "the paragraph holds prose; end the message with a paragraph of trailers alone "
                    + "(amend the commit, or declare the change on a new one)"
            ])
    }

    /// Which commits change the inputs: those whose diff touches the project file or a suite,
    /// merge commits never (their content is their parents'), every commit but a merge when the
    /// inputs are not known, and one whose diff cannot be read (with a warning). A trailer
    /// without a bound beside another such commit is named as not applied, with what to write.
    @Test func theOtherCommitsChangingTheInputsAreNamedOnEachTrailer() {
        let repository = ScriptedTrailers(
            [
                (commit("ccccccc"), true, ["qa ttft worse"]), (commit("bbbbbbb"), false, []),
                (commit("aaaaaaa"), false, ["* evaluated-tokens worse", "qa checks worse"]),
                (commit("9999999"), false, []),
            ], changed: ["bbbbbbb": ["suites/qa.yaml", "README.md"], "aaaaaaa": ["chateval.yaml"], "9999999": ["Sources/x.swift"]])
        let declared = DeclaredExpectations(repository: repository, base: "base", head: "head", inputs: ["chateval.yaml", "suites"])
        #expect(!repository.asked.contains { $0.hasSuffix(" ccccccc") }, "a merge commit's diff is not asked for")
        #expect(declared.expectations.map(\.otherCommitsChangingInputs) == [["bbbbbbb", "aaaaaaa"], ["bbbbbbb"], ["bbbbbbb"]])
        #expect(declared.expectations.allSatisfy { $0.notApplied != nil })
        #expect(
            declared.warnings.contains(
                "ChatEval-Expect on aaaaaaa is not applied: 1 other commit (bbbbbbb) changes the suites' inputs; "
                    + "give it a bound (`+3`) so only its own change is accepted"))
        #expect(
            declared.warnings.contains(
                "commit aaaaaaa: ChatEval-Expect: 'qa checks worse' names no check and is read as checks:* (every check of the suite); "
                    + "say which check: checks:TYPE, or checks:* for every check of the suite"))

        let alone = DeclaredExpectations(
            repository: ScriptedTrailers([(commit("aaaaaaa"), false, ["qa ttft worse"]), (commit("9999999"), false, [])], changed: [:]),
            base: "base", head: "head", inputs: nil)
        #expect(alone.expectations.first?.otherCommitsChangingInputs == ["9999999"], "unknown inputs: every commit but a merge counts")
        let unreadable = DeclaredExpectations(
            repository: ScriptedTrailers(
                [(commit("aaaaaaa"), false, ["qa ttft worse"]), (commit("9999999"), false, [])], changed: ["aaaaaaa": ["suites/qa.yaml"]]),
            base: "base", head: "head", inputs: ["suites"])
        #expect(unreadable.expectations.first?.otherCommitsChangingInputs == ["9999999"])
        #expect(
            unreadable.warnings.first == "could not read what 9999999 changed (object not found); counted as changing the suites' inputs")
    }

    @Test func nothingIsAskedForTheSameCommitAndAnUnreadableHistoryIsAWarning() {
        let repository = ScriptedTrailers([(commit("aaaaaaa"), false, ["qa ttft worse"])])
        #expect(DeclaredExpectations(repository: repository, base: "same", head: "same", inputs: []).expectations.isEmpty)
        #expect(DeclaredExpectations(repository: repository, base: nil, head: "head", inputs: []).expectations.isEmpty)
        #expect(repository.asked.isEmpty)
        let unreadable = DeclaredExpectations(
            repository: ScriptedTrailers([], failure: Unreadable()), base: "base", head: "head", inputs: [])
        #expect(unreadable.expectations.isEmpty)
        #expect(
            unreadable.warnings == ["ChatEval-Expect trailers were not read (object not found); every regression fails the comparison"])
    }
}
