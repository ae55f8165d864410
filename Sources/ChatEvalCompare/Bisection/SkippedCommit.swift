/// A commit a bisection did not measure, and why.
public struct SkippedCommit: Codable, Sendable, Hashable {
    public var shortId: String
    public var subject: String
    /// "changes no input (only notes.txt)", "the build failed".
    public var reason: String

    public init(shortId: String, subject: String, reason: String) {
        self.shortId = shortId
        self.subject = subject
        self.reason = reason
    }
}
