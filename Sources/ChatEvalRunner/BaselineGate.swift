import ChatEvalCompare
import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// `run --baseline` as a library: the baseline's record and the head's, paired (roles set, each
/// naming the other), their result files started, and the paired run that replays them
/// interleaved and compares them. Loading the runtimes, stopping on signals and reporting are
/// the caller's.
public struct BaselineGate: Sendable {
    /// The baseline's record, then the head's, as they start.
    public let records: [RunRecord]
    /// Their writers, in the same order.
    public let writers: [ResultWriter]

    /// Pairs `base` and `head` and starts their result files in `folder`, each keeping its suites' text.
    public init(base: RunRecord, head: RunRecord, baseSuites: [Suite], headSuites: [Suite], folder: URL) throws(ResultWriteError) {
        var (base, head) = (base, head)
        head.role = .head
        base.role = .baseline
        head.pairedRunId = base.runId
        base.pairedRunId = head.runId
        records = [base, head]
        writers = [
            try RunRecordMaker.writer(base, suites: baseSuites, folder: folder),
            try RunRecordMaker.writer(head, suites: headSuites, folder: folder),
        ]
    }

    /// The most turns `paired` can replay: every turn of both sides at the design's most repetitions.
    public static func turnsAtMost(_ paired: PairedRun) -> Int {
        (paired.base.plan.suites + paired.head.plan.suites).reduce(0) { $0 + $1.turnCount } * paired.design.maximum
    }

    /// Replays both sides into the records (see `PairedRun.run`).
    public func run(_ paired: PairedRun, stop: StopRequest, observer: (any RunObserver)?) async throws -> PairedRun.Outcome {
        try await paired.run(base: records[0], head: records[1], writers: writers, stop: stop, observer: observer)
    }

    /// The comparison to report: none when the run was cancelled or either side did not finish.
    public static func finishedComparison(_ outcome: PairedRun.Outcome?, records: [RunRecord], cancelled: Bool) -> Comparison? {
        guard !cancelled, !records.contains(where: { $0.status == .incomplete }) else { return nil }
        return outcome?.comparison
    }
}
