import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalCompare

/// The suite verdict in one line (issue 44), HPT-style: per conversation a rank test, a tie where
/// it is not significant; across conversations a signed-rank test; the probability head is slower
/// and the factor at 95%.
@Suite struct HPTVerdictTests {
    /// The signed-rank step: every conversation tied is 50%; k of n slower and none faster is the
    /// exact mid-p of k positive signs among the non-zero shifts.
    @Test func theSignedRankStepIsExact() {
        #expect(HPTVerdict.probabilitySlower([0, 0, 0]) == 0.5)
        // One slower conversation alone: P(S < r) + ½P(S = r) = ½ + ¼.
        #expect(abs(HPTVerdict.probabilitySlower([0.1]) - 0.75) < 1e-12)
        // Eight slower: every sign positive, 1 − ½·2⁻⁸.
        #expect(abs(HPTVerdict.probabilitySlower(Array(repeating: 0.1, count: 8)) - (1 - 0.5 / 256)) < 1e-12)
        // Symmetric: the mirrored shifts are as likely faster.
        let shifts = [0.05, -0.02, 0.08, 0, 0.11, -0.01]
        #expect(abs(HPTVerdict.probabilitySlower(shifts) + HPTVerdict.probabilitySlower(shifts.map { -$0 }) - 1) < 1e-12)
        // Ties (zeros) only dilute: three slower among five ties is less sure than three alone.
        #expect(HPTVerdict.probabilitySlower([0.1, 0.2, 0.3, 0, 0, 0, 0, 0]) == HPTVerdict.probabilitySlower([0.1, 0.2, 0.3]))
        #expect(JointPermutation.midranks([3, 1, 3, 0]) == [3.5, 2, 3.5, 1])
    }

    /// A conversation whose replays do not differ significantly is a tie, whatever its medians.
    @Test func aConversationNotSignificantIsATie() throws {
        let tie = try #require(HPTVerdict.of(strata: [([0.0, 0.01, -0.01], [0.02, 0.0, 0.03])], suite: "s", metric: .timeToFirstToken))
        #expect(tie.slower == 0 && tie.faster == 0 && tie.ties == 1 && tie.probabilitySlower == 0.5)
        let slower = (0..<8).map { _ in (base: [0.0, 0.01, -0.01, 0.005, -0.005], head: [0.1, 0.11, 0.09, 0.105, 0.095]) }
        let verdict = try #require(HPTVerdict.of(strata: slower, suite: nil, metric: .timeToFirstToken))
        #expect(verdict.slower == 8 && verdict.probabilitySlower > 0.99)
        // Every conversation about e^0.1 = 1.105× slower: at 95%, at least about that much.
        let factor = try #require(verdict.slowerAtLeast)
        #expect(factor > 1.05 && factor < 1.11, "\(factor)")
        #expect(verdict.sentence.hasPrefix("99% likely slower; 95% likely ≥ "), "\(verdict.sentence)")
        #expect(verdict.sentence.hasSuffix("(ttft, 8 conversations: 8 slower)"), "\(verdict.sentence)")
    }

    /// The seeded calibration (GateCalibration's synthetic replays, as the gate's own tables are
    /// measured): eight one-turn conversations, TTFT varying 10% with 0.55 of it shared by a
    /// replay's turns. Identical builds must say "≥ 95% likely slower" at most 5% of the time;
    /// a 10% slowdown's median probability is printed (README, "A suite verdict in one line").
    @Test(arguments: [3, 5, 10])
    func theLineIsCalibratedOnSeededData(_ repetitions: Int) {
        let calibration = GateCalibration(settings: .default)
        func scenario(_ slowdown: Double) -> GateCalibration.Scenario {
            GateCalibration.Scenario(
                suites: [Array(repeating: 1, count: 8)], repetitions: repetitions, coefficientOfVariation: 0.1,
                sharedVariance: 0.55, slowdown: slowdown)
        }
        let trials = 1_000
        let identical = calibration.hptVerdicts(scenario(0), trials: trials, seed: 44)
        let falseAlarms = identical.filter { $0.probabilitySlower >= 0.95 }.count
        let slower = calibration.hptVerdicts(scenario(0.1), trials: trials, seed: 45)
        let median = Distribution(slower.map(\.probabilitySlower))?.median ?? 0
        let caught = slower.filter { $0.probabilitySlower >= 0.95 }.count
        print(
            "HPT calibration, 8 one-turn conversations × \(repetitions) repetitions, \(trials) trials: A/A ≥ 95% likely slower "
                + "\(falseAlarms)/\(trials); 10% slower: median probability \(String(format: "%.3f", median)), "
                + "≥ 95% in \(caught)/\(trials)")
        #expect(identical.count == trials && slower.count == trials)
        #expect(Double(falseAlarms) / Double(trials) <= 0.05, "A/A: \(falseAlarms) of \(trials)")
        // A/A is centred: as often faster as slower.
        let aaMedian = Distribution(identical.map(\.probabilitySlower))?.median ?? 0
        #expect(abs(aaMedian - 0.5) < 0.05, "A/A median \(aaMedian)")
        // A real 10% slowdown reads as slower, and more surely with more repetitions.
        #expect(median > 0.75, "10% slower: median \(median)")
    }

    /// The comparison carries it, whole and per suite, from the replays it compares.
    @Test func aComparisonCarriesTheLineWholeAndPerSuite() throws {
        var synthetic = SyntheticRuns(seed: 5, noise: 0.02)
        let base = (1...6).map { synthetic.record(runId: "b\($0)", commit: SyntheticRuns.commitID(1), conversations: 5, turns: 2) }
        let head = (1...6).map {
            synthetic.record(runId: "h\($0)", commit: SyntheticRuns.commitID(2), conversations: 5, turns: 2, ttft: 0.24)
        }
        let comparison = RunComparator.compare(
            base: ComparedRuns(runs: base, sources: ["b"]), head: ComparedRuns(runs: head, sources: ["h"]), settings: .default)
        let whole = try #require(comparison.hpt)
        #expect(whole.suite == nil && whole.conversations == 5 && whole.slower == 5, "\(whole)")
        #expect(whole.probabilitySlower > 0.95)
        let factor = try #require(whole.slowerAtLeast)
        #expect(factor > 1.1 && factor < 1.2, "20% slower: \(factor)")
        #expect(comparison.suites.first?.hpt?.suite == "smoke")
    }
}
