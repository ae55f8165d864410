import ChatEvalCore
import ChatEvalStore
import Foundation
import Testing

@testable import ChatEvalCompare

/// Issue 29, items 1 and 2: two recorded runs, head every time ×1.25 — twelve metrics "underpowered"
/// and "No regression." before, because Tarone and Holm charged the family for 42 independent
/// chances where the replays' metrics move together; and separately recorded runs compared as if
/// their replays were independent.
@Suite struct JointFamilyTests {
    /// Two suites of one 3-turn conversation each, five replays a side (the shape), head
    /// the base's twin with every time × `factor`, shifted again by `runOffset` (a whole run slower).
    private func twins(factor: Double, runOffset: Double = 1) -> (RecordBuilder, RecordBuilder) {
        var random = SeededRandom(seed: 11)
        var base = RecordBuilder(), head = RecordBuilder(runId: "h")
        for suite in ["smoke", "long-conversation"] {
            for repetition in 1...5 {
                let ttft = (0..<3).map { turn in 0.03 * Double(turn + 1) * exp(0.05 * random.normal()) }
                base.replay(suite: suite, conversation: "c", repetition: repetition, ttft: ttft)
                head.replay(suite: suite, conversation: "c", repetition: repetition, ttft: ttft.map { $0 * factor * runOffset })
            }
        }
        return (base, head)
    }

    private func compare(_ sides: (RecordBuilder, RecordBuilder), spread: RunToRunSpread? = nil) -> Comparison {
        RunComparator.compare(
            base: ComparedRuns(runs: [sides.0.record], sources: ["base.json"]),
            head: ComparedRuns(runs: [sides.1.record], sources: ["head.json"]), settings: .default, runSpread: spread)
    }

    @Test func aTwentyFivePercentTwinIsARegression() throws {
        let comparison = compare(twins(factor: 1.25))
        #expect(comparison.hasRegression)
        let ttft = try #require(comparison.suites.first { $0.name == "smoke" }?.metrics.first { $0.metric == .timeToFirstToken })
        #expect(ttft.verdict == .regression)
        // Two suites, 252 arrangements each, all enumerated; TTFT, prefill and total time of a
        // suite extreme in the same arrangement: the family pays about twice, not 18 times.
        #expect(comparison.family.exact == true && comparison.family.labelings == 252 * 252)
        #expect((ttft.adjustedPValue ?? 1) < 2.0 / 252 + 1e-9)
    }

    @Test func theSameRunsAreNoRegression() {
        let comparison = compare(twins(factor: 1))
        #expect(!comparison.hasRegression)
        #expect(comparison.metricImprovements.isEmpty)
    }

    /// A whole run 8% slower (its machine state) against its base run: every replay is slower, so
    /// the replays alone call it a regression — separate runs do differ this much, and with the
    /// run-to-run spread (3% a run, as the stated default's TTFT) it is not. The 25% twin still is.
    @Test func aRunOffsetIsNotARegressionOnceTheRunsSpreadCounts() throws {
        let spread = RunToRunSpread(
            spreads: [.timeToFirstToken: 0.03, .totalTime: 0.03, .prefillTokensPerSecond: 0.03], source: .stated, runs: 0)
        let offset = twins(factor: 1, runOffset: 1.08)
        #expect(compare(offset).hasRegression)
        let judged = compare(offset, spread: spread)
        #expect(!judged.hasRegression)
        let ttft = try #require(judged.suites.first?.metrics.first { $0.metric == .timeToFirstToken })
        #expect(ttft.verdict != .regression)
        #expect(ttft.reason.contains("separately recorded runs differ this much by themselves") || ttft.reason.contains("runs' own spread"))
        #expect(judged.runSpread == spread)
        #expect(compare(twins(factor: 1.25), spread: spread).hasRegression)
    }
}
