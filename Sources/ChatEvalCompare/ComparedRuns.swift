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

extension ComparedRuns {
    /// True when `base` and `head` are the two runs of ONE paired job (`run --baseline`): a run a
    /// side, each one's `pairedRunId` the other's `runId`. Only they were interleaved and screened
    /// pair by pair; runs of two different paired jobs are separately recorded runs like any other.
    public static func onePairedJob(base: [RunRecord], head: [RunRecord]) -> Bool {
        base.count == 1 && head.count == 1 && head[0].pairedRunId == base[0].runId && base[0].pairedRunId == head[0].runId
            && base[0].runId != head[0].runId
    }
}
