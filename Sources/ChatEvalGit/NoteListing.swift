/// The notes under one git notes ref: which commits have a note, and the id of each note's blob
/// (which changes whenever the note's text does) — what an index compares to see what changed.
public struct NoteListing: Sendable, Equatable {
    /// The notes ref's commit (40 hex digits); nil when the ref does not exist.
    public var tip: String?
    /// Annotated commit id → note blob id.
    public var notes: [String: String]

    public init(tip: String?, notes: [String: String]) {
        self.tip = tip
        self.notes = notes
    }
}
