import ChatEvalGit
import ChatEvalHistory
import ChatEvalRunner

/// A comparison's declared expectations are read from the commits' trailers through libgit2.
extension GitRepository: CommitTrailers {}

/// Step suspects are named from libgit2 tree diffs against the first parent.
extension GitRepository: ChangedPaths {}
