import ChatEvalCore

/// A run read from somewhere: a result file, or a line of a git note.
public struct LocatedRun: Sendable {
    public var record: RunRecord
    /// The file path, or `notes:<short commit>` for a run read from git notes.
    public var source: String

    public init(record: RunRecord, source: String) {
        self.record = record
        self.source = source
    }
}
