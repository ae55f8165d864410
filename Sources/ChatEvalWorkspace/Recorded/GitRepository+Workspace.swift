import ChatEvalCore
import ChatEvalGit
import ChatEvalHistory
import ChatEvalRunner

/// A comparison's declared expectations are read from the commits' trailers through libgit2.
extension GitRepository: CommitTrailers {
    public func addedCommits(trailer key: String, head: String, base: String, maxCount: Int) throws
        -> [(commit: CommitSummary, isMerge: Bool, values: [String])]
    {
        try trailers(named: key, from: head, after: base, maxCount: maxCount).map { ($0.commit, $0.isMerge, $0.values) }
    }

    public func unreadTrailers(_ key: String, in commit: String) throws -> (lines: [String], reason: String)? {
        try unreadTrailers(named: key, ofCommit: commit).map { ($0.lines, $0.reason) }
    }
}

/// Step suspects are named from libgit2 tree diffs against the first parent.
extension GitRepository: ChangedPaths {}
