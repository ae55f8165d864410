import ChatEvalCore

/// What a repository holds of commit trailers: the view of git that reading a comparison's
/// declared expectations needs (GitRepository conforms in ChatEvalWorkspace; Runner does not import Git).
public protocol CommitTrailers {
    /// The values of the `key` trailers of every commit `head` adds to `base` (reachable from
    /// `head`, not from `base`: a pull request's merge commit and the commits it merges), newest
    /// first, each with whether it is a merge commit; at most `maxCount` commits are read. Throws
    /// when the history cannot be read.
    func addedCommits(trailer key: String, head: String, base: String, maxCount: Int) throws
        -> [(commit: CommitSummary, isMerge: Bool, values: [String])]

    /// Which of `paths` (files or folders, relative to the repository root) `commit` changed
    /// against its first parent. Throws when the commit or its parent cannot be read.
    func changedPaths(_ paths: [String], in commit: String) throws -> [String]

    /// The lines of `commit`'s message that look like `key` trailers but that git does not read as
    /// trailers (a line of prose in the last paragraph drops them all), and why; nil when there
    /// are none. Throws when the commit cannot be read.
    func unreadTrailers(_ key: String, in commit: String) throws -> (lines: [String], reason: String)?
}

extension CommitTrailers {
    /// A repository that cannot tell: none.
    public func unreadTrailers(_ key: String, in commit: String) throws -> (lines: [String], reason: String)? { nil }
}
