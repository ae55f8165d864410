/// A commit a bisection can measure: one that changed an input (or an end of the range), with
/// the commits after it that changed none folded in — they replay exactly what it replays.
public struct BisectState: Codable, Sendable, Hashable {
    public var commit: String
    public var shortId: String
    public var subject: String
    /// Later commits that change no input, measured as this one.
    public var folded: [SkippedCommit]

    public init(commit: String, shortId: String, subject: String, folded: [SkippedCommit] = []) {
        self.commit = commit
        self.shortId = shortId
        self.subject = subject
        self.folded = folded
    }
}
