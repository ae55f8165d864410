import ChatEvalCore
import Foundation
import Testing

@testable import ChatEvalCompare

/// What `calibrate` prints of the gate: its false-alarm rate with the interval the comparisons
/// can support, and the smallest change it detects, which is never under the threshold (a change
/// under the threshold is never flagged).
@Suite struct GateAuditTests {
    /// Quiet replays (1% spread), 8 conversations, 30 repetitions: the significance test alone
    /// would detect about 1.5%, but a regression must pass the 5% threshold too, so 90% power
    /// needs the threshold plus z_β = 1.28 standard errors.
    @Test func theDetectableChangeIsAtLeastTheThresholdPlusZBetaStandardErrors() {
        let bound = log1p(0.05), spread = 0.01
        let detectable = GateAudit.detectableChange(
            spread: spread, strata: 8, repetitions: 30, alpha: 0.01, tests: 40, relative: true, threshold: bound)
        let standardError = spread * (Double.pi / 3).squareRoot() * (2.0 / 240).squareRoot()
        #expect(abs(detectable - expm1(bound + RankShift.normalQuantile(0.9) * standardError)) < 1e-12)
        #expect(detectable > 0.05)
        // Noisy replays: significance is the harder condition, and the threshold changes nothing.
        let noisy = GateAudit.detectableChange(spread: 0.3, strata: 1, repetitions: 5, alpha: 0.01, tests: 40, relative: true)
        #expect(
            noisy
                == GateAudit.detectableChange(
                    spread: 0.3, strata: 1, repetitions: 5, alpha: 0.01, tests: 40, relative: true, threshold: bound))
    }

    /// A/A comparisons of quiet recorded runs: every metric's detectable change is at least its
    /// threshold, and the false-alarm rate comes with its Clopper–Pearson interval.
    @Test func anAuditOfQuietRunsNeverClaimsToDetectUnderTheThreshold() throws {
        var results: [Comparison] = []
        for trial in 0..<3 {
            var base = RecordBuilder(runId: "b"), head = RecordBuilder(runId: "h")
            for repetition in 1...10 {
                let jitter = 1 + 0.002 * Double((repetition * 7 + trial) % 5)
                base.replay(repetition: repetition, ttft: [0.2 * jitter, 0.1 * jitter])
                head.replay(repetition: repetition, ttft: [0.2 / jitter, 0.1 * jitter])
            }
            results.append(
                RunComparator.compare(
                    base: ComparedRuns(runs: [base.record], sources: ["b"]), head: ComparedRuns(runs: [head.record], sources: ["h"]),
                    settings: .default))
        }
        let audit = GateAudit.measure(
            results, design: .fixed(10), settings: .default, machine: "cpu", modelSha256: nil, model: "m.gguf", commit: nil)
        let ttft = try #require(audit.metrics.first { $0.metric == .timeToFirstToken })
        let threshold = try #require(ComparisonSettings.default.thresholds[.timeToFirstToken]).relative
        #expect(ttft.detectable >= threshold, "detects ≥ \(ttft.detectable) under the \(threshold) threshold")
        for noise in audit.metrics where noise.scale == .relative {
            let bound = try #require(ComparisonSettings.default.thresholds[noise.metric]).relative
            #expect(noise.detectable >= bound, "\(noise.metric.name): \(noise.detectable) < \(bound)")
        }
        let rate = try #require(audit.falseAlarmRate)
        #expect(audit.falseAlarms == 0 && rate.lower == 0 && abs(rate.upper - (1 - pow(0.025, 1.0 / 3))) < 1e-12)
    }
}
