import ChatEvalCore

/// The project file a run used: which file, and a digest of its content.
public struct ProjectFileRecord: Codable, Sendable, Hashable {
    /// As given (relative to the repository for a file read from a commit: `abc1234:chateval.yaml`).
    public var path: String
    public var sha256: String

    public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }
}
