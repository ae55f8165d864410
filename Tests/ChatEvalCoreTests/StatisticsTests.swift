import ChatEvalCore
import Foundation
import Testing

/// The rank test, its interval and Holm's adjustment, against values computed by hand or by
/// SciPy (`scipy.stats.mannwhitneyu`, method "exact" and "asymptotic").
@Suite struct StatisticsTests {
    @Test func exactMannWhitneyMatchesSciPy() throws {
        // scipy.stats.mannwhitneyu([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], method="exact").pvalue
        let separated = try #require(RankShift(strata: [([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])]))
        #expect(abs(separated.pValue - 0.007936507936507936) < 1e-12)
        // ... ([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]) → 0.6904761904761905
        let interleaved = try #require(RankShift(strata: [([1, 3, 5, 7, 9], [2, 4, 6, 8, 10])]))
        #expect(abs(interleaved.pValue - 0.6904761904761905) < 1e-12)
    }

    @Test func theEstimateIsTheMedianOfPairwiseDifferences() throws {
        let shift = try #require(RankShift(strata: [([10, 11, 12], [15, 17])]))
        // differences: 5 4 3 7 6 5 → median 5
        #expect(shift.estimate == 5)
        #expect(shift.baseCount == 3 && shift.headCount == 2)
    }

    @Test func twoSamplesEachCannotDecide() throws {
        let shift = try #require(RankShift(strata: [([1.0, 1.1], [2.0, 2.1])]))
        #expect(shift.pValue > 0.3)                               // the most extreme split has p = 1/3
        #expect(shift.lower == -.infinity && shift.upper == .infinity)
    }

    @Test func theIntervalHoldsTheTrueShiftAndNarrowsWithMoreSamples() throws {
        var random = SeededRandom(seed: 7)
        func sample(_ count: Int, shift: Double) -> [Double] { (0..<count).map { _ in random.normal() + shift } }
        let small = try #require(RankShift(strata: [(sample(8, shift: 0), sample(8, shift: 1))]))
        let large = try #require(RankShift(strata: [(sample(200, shift: 0), sample(200, shift: 1))]))
        #expect(small.lower < 1 && 1 < small.upper)
        #expect(large.lower < 1 && 1 < large.upper)
        #expect(large.upper - large.lower < (small.upper - small.lower) / 2)
        #expect(large.pValue < 1e-6)
    }

    @Test func strataAreComparedOnlyWithinThemselves() throws {
        // Turn 2 is ten times slower than turn 1 on both sides; head is 1 slower in each turn.
        var random = SeededRandom(seed: 3)
        let strata: [(base: [Double], head: [Double])] = [0.0, 10.0].map { level in
            ((0..<10).map { _ in level + random.normal() * 0.3 }, (0..<10).map { _ in level + 1 + random.normal() * 0.3 })
        }
        let shift = try #require(RankShift(strata: strata))
        #expect(abs(shift.estimate - 1) < 0.3)
        #expect(shift.pValue < 1e-4)
        // Pooled without strata, the turn-to-turn spread would swamp the shift.
        let pooled = try #require(RankShift(strata: [(strata.flatMap(\.base), strata.flatMap(\.head))]))
        #expect(pooled.pValue > shift.pValue * 100)
    }

    @Test func identicalSamplesShowNoShift() throws {
        let shift = try #require(RankShift(strata: [([0.5, 0.5, 0.5], [0.5, 0.5, 0.5]), ([0.8, 0.8], [0.8, 0.8])]))
        #expect(shift.pValue == 1)
        #expect(shift.estimate == 0 && shift.lower == 0 && shift.upper == 0)
    }

    @Test func aStratumMissingASideIsLeftOut() {
        #expect(RankShift(strata: [([1, 2], [])]) == nil)
        #expect(RankShift(strata: [([1, 2], [3]), ([], [4])])?.headCount == 1)
    }

    @Test func holmAdjustsStepDown() {
        // p = [0.01, 0.04, 0.03, 0.005] → sorted 0.005×4, 0.01×3, 0.03×2, 0.04×1 → 0.02, 0.03, 0.06, 0.06
        let adjusted = Holm.adjust([0.01, 0.04, 0.03, 0.005])
        #expect(zip(adjusted, [0.03, 0.06, 0.06, 0.02]).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(Holm.adjust([0.9, 0.8]) == [1, 1])
    }

    @Test func normalQuantileInvertsTheTail() {
        for p in [1e-6, 0.001, 0.025, 0.5, 0.9, 0.999999] {
            let z = RankShift.normalQuantile(p)
            #expect(abs((1 - RankShift.normalUpperTail(z)) - p) < 1e-12 * max(1, 1 / p))
        }
        #expect(abs(RankShift.normalQuantile(0.975) - 1.959963984540054) < 1e-12)
    }
}
