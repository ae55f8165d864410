import ChatEvalCore

/// What a repository holds of commit trailers: the view of git that reading a comparison's
/// declared expectations needs (GitRepository conforms in ChatEvalWorkspace; Runner does not import Git).
public protocol CommitTrailers {
    /// The values of the `key` trailers of each commit after `base` on the first-parent line up to
    /// `head`, newest first, with the commit; at most `maxCount` commits are read. Throws when the
    /// history cannot be read.
    func trailers(named key: String, from head: String, after base: String, maxCount: Int) throws
        -> [(commit: CommitSummary, values: [String])]
}
