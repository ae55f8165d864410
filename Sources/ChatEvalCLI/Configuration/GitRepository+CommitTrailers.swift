import ChatEvalGit
import ChatEvalRunner

/// A comparison's declared expectations are read from the commits' trailers through libgit2.
extension GitRepository: CommitTrailers {}
