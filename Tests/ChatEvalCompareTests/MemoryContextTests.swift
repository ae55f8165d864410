import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalCompare

/// Issue 44: a model's peak memory depended on what its process loaded before it, and `compare`
/// of a lone run against a two-model run's member called 25 MiB of that a regression.
@Suite struct MemoryContextTests {
    /// Ten replays of four conversations a side, peak memory `mebibytes` on every turn.
    static func runs(_ mebibytes: Int, commit: Int, group: RunGroup?, ownBaseline: Bool) -> [RunRecord] {
        var synthetic = SyntheticRuns(seed: UInt64(commit), noise: 0.02)
        return (1...10).map { index in
            var record = synthetic.record(runId: "r\(commit)-\(index)", commit: SyntheticRuns.commitID(commit), conversations: 4, turns: 1)
            record.group = group
            record.runtime.memory = EngineMemory(residentBytesBeforeLoad: 45 << 20)
            if ownBaseline { record.runtime.memory?.peakBasis = EngineMemory.aboveLoadBaseline }
            for c in record.suites[0].conversations.indices {
                record.suites[0].conversations[c].turns[0].metrics?.peakResidentBytes = mebibytes << 20
            }
            return record
        }
    }

    static func compare(_ base: [RunRecord], _ head: [RunRecord]) -> Comparison {
        RunComparator.compare(
            base: ComparedRuns(runs: base, sources: ["lone"]), head: ComparedRuns(runs: head, sources: ["group"]), settings: .default)
    }

    /// Records written before the peaks were each model's own: a lone run's process against a
    /// group member's process are not the same quantity — left out, and said.
    @Test func aLoneRunAgainstAGroupMemberIsNoMemoryRegression() throws {
        let group = RunGroup(id: "g", index: 1, count: 2, label: "SmolLM2-135M-Instruct.Q4_1")
        let comparison = Self.compare(
            Self.runs(255, commit: 1, group: nil, ownBaseline: false), Self.runs(280, commit: 2, group: group, ownBaseline: false))
        #expect(
            !comparison.metricRegressions.contains { $0.change.metric == .peakMemory },
            "\(comparison.metricRegressions.map(\.change.metric))")
        #expect(!comparison.suites[0].metrics.contains { $0.metric == .peakMemory })
        let context = try #require(comparison.memoryContext)
        #expect(!context.compared)
        #expect(
            context.sentence
                == "peak memory measured in different process contexts (base: the process's whole peak, alone in its process; "
                + "head: the process's whole peak, model 1 of 2 in one process): not compared")
        // The same process context on both sides: compared as before, a real +10% is a regression.
        let alike = Self.compare(
            Self.runs(255, commit: 1, group: nil, ownBaseline: false), Self.runs(280, commit: 2, group: nil, ownBaseline: false))
        #expect(alike.memoryContext == nil)
        #expect(alike.metricRegressions.contains { $0.change.metric == .peakMemory })
    }

    /// Peaks measured above each model's own load baseline, each model the first its process
    /// loaded, are compared across process contexts, with a note; a model loaded after another
    /// ran (8% below alone on the real model) is not.
    @Test func ownBaselinesAreComparedAcrossProcessContexts() throws {
        let first = RunGroup(id: "g", index: 1, count: 2, label: "smol")
        let comparison = Self.compare(
            Self.runs(210, commit: 1, group: nil, ownBaseline: true), Self.runs(210, commit: 2, group: first, ownBaseline: true))
        let context = try #require(comparison.memoryContext)
        #expect(
            context.compared && context.sentence.hasSuffix("each above its model's own baseline and loaded first in its process: compared"))
        #expect(comparison.suites[0].metrics.contains { $0.metric == .peakMemory && $0.verdict != .regression })
        let second = RunGroup(id: "g", index: 2, count: 2, label: "smol")
        let after = Self.compare(
            Self.runs(210, commit: 1, group: nil, ownBaseline: true), Self.runs(190, commit: 2, group: second, ownBaseline: true))
        #expect(after.memoryContext?.compared == false)
        #expect(!after.suites[0].metrics.contains { $0.metric == .peakMemory })
        // A side measured the old way against one measured above its baseline: not the same quantity.
        let mixed = Self.compare(
            Self.runs(255, commit: 1, group: nil, ownBaseline: false), Self.runs(210, commit: 2, group: nil, ownBaseline: true))
        #expect(mixed.memoryContext?.compared == false)
        #expect(!mixed.suites[0].metrics.contains { $0.metric == .peakMemory })
    }
}
