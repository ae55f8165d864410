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

    /// Issue 41, item 5: the run term and the replays' own error add in quadrature. The spread is
    /// set so that the 25% twin's TTFT shift passes the run term alone (z·σ·√2 is 98% of it) but
    /// not the two together (z·√(2σ² + se²), se read from the shift's own interval): underpowered
    /// now; a regression before, when the guard left the within-run error out. Its floor is the
    /// bound it did not pass, and lies past its change.
    @Test func theRunTermAndTheReplaysOwnErrorAddInQuadrature() throws {
        let sides = twins(factor: 1.25)
        let alone = try #require(compare(sides).suites.first?.metrics.first { $0.metric == .timeToFirstToken })
        #expect(alone.verdict == .regression)
        let estimate = log1p(try #require(alone.change))
        let width = log1p(try #require(alone.changeUpper)) - log1p(try #require(alone.changeLower))
        let se = width / (2 * RankShift.normalQuantile(0.975))
        // One metric with a run-level term in two suites: the family's 1% over two tests.
        let z = RankShift.normalQuantile(1 - 0.01 / 2)
        let sigma = 0.98 * estimate / (z * 2.0.squareRoot())
        try #require(z * (2 * sigma * sigma + se * se).squareRoot() > estimate, "the fixture's replays must carry error")
        let spread = RunToRunSpread(spreads: [.timeToFirstToken: sigma], source: .stated, runs: 0)
        let judged = try #require(compare(sides, spread: spread).suites.first?.metrics.first { $0.metric == .timeToFirstToken })
        #expect(judged.verdict == .underpowered)
        #expect(judged.reason.contains("separately recorded runs differ this much by themselves"), "\(judged.reason)")
        let floor = try #require(judged.runFloor)
        #expect(abs(log1p(floor) - z * (2 * sigma * sigma + se * se).squareRoot()) < 1e-9)
        #expect(floor > (alone.change ?? 0))
        // A paired comparison has no run term, and no floor.
        #expect(alone.runFloor == nil)
    }
}
