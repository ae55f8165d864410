import ChatEvalCore

/// Why a run was made, when it is not an ordinary run.
public enum RunRole: String, Codable, Sendable, Hashable {
    /// The base side of `chateval run --baseline REV`: REV's suites and project file, replayed by
    /// the head's build in the same job, interleaved with the head run (`pairedRunId`).
    case baseline
    /// The head side of `chateval run --baseline REV`.
    case head
}
