import ChatEvalCore
import ChatEvalStore

/// The runs on one side of a comparison (one or more, pooled), and where they were read from.
public struct ComparedRuns: Sendable {
    public var runs: [RunRecord]
    /// File paths or `notes:<commit>` entries, for messages.
    public var sources: [String]

    public init(runs: [RunRecord], sources: [String]) {
        self.runs = runs
        self.sources = sources
    }
}
