import Foundation

/// One commit of a history: what a history report shows beside its results.
public struct CommitSummary: Codable, Sendable, Hashable {
    /// 40 lowercase hex digits.
    public var id: String
    /// The shortest unique abbreviation, at least 7 digits.
    public var shortId: String
    /// The subject, as `git log --format=%s` shows it.
    public var subject: String
    /// The committer time.
    public var time: Date

    public init(id: String, shortId: String, subject: String, time: Date) {
        self.id = id
        self.shortId = shortId
        self.subject = subject
        self.time = time
    }
}
