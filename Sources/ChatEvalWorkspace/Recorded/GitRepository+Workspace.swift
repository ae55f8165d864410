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
}

/// Step suspects are named from libgit2 tree diffs against the first parent.
extension GitRepository: ChangedPaths {}
