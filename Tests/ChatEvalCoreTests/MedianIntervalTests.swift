import ChatEvalCore
import Foundation
import Testing

/// The sign test's interval for a median: its order statistics at the edges (too few values,
/// the first counts that reach 95%, ties), its coverage calibrated on seeded samples, and the
/// goal verdicts a benchmark prints from it.
@Suite struct MedianIntervalTests {
    @Test func fiveValuesCannotReach95PercentAndSixReachItWithTheirExtremes() throws {
        #expect(MedianInterval([1, 2, 3, 4, 5]) == nil, "[min, max] of 5 covers 93.75%")
        let six = try #require(MedianInterval([6, 1, 5, 2, 4, 3]))
        #expect(six.lower == 1 && six.upper == 6)
        #expect(abs(six.coverage - (1 - 2.0 / 64)) < 1e-12)
        #expect(MedianInterval([1, 2, 3, 4, 5], confidence: 0.9)?.lower == 1, "93.75% reaches 90%")
        #expect(MedianInterval([]) == nil && MedianInterval([1, .nan, 2, 3, 4, 5, 6]) == nil)
    }

    /// n = 7: P(B ≤ 0) = 1/128 ≤ 2.5% < P(B ≤ 1) = 8/128, so [x₁, x₇]; n = 17: P(B ≤ 4) =
    /// 3214/131072 = 2.45%, so [x₅, x₁₃]; n = 25: P(B ≤ 7) = 0.0216, so [x₈, x₁₈].
    @Test func theOrderStatisticsAreTheSignTests() throws {
        let seven = try #require(MedianInterval((1...7).map(Double.init)))
        #expect(seven.lower == 1 && seven.upper == 7)
        let seventeen = try #require(MedianInterval((1...17).reversed().map(Double.init)))
        #expect(seventeen.lower == 5 && seventeen.upper == 13)
        #expect(abs(seventeen.coverage - (1 - 2 * 3214.0 / 131_072)) < 1e-12)
        let twentyFive = try #require(MedianInterval((1...25).map(Double.init)))
        #expect(twentyFive.lower == 8 && twentyFive.upper == 18)
        #expect(twentyFive.coverage >= 0.95)
    }

    /// Past 1,074 values ½ⁿ underflows: the interval must still be the sign test's, near
    /// n/2 ± 0.98·√n (normal approximation: 956 at 2,000), symmetric, and cover at least 95%.
    @Test func aLargeSampleKeepsItsOrderStatistics() throws {
        let n = 2_000
        let large = try #require(MedianInterval((1...n).map(Double.init)))
        #expect((950...960).contains(large.lower), "\(large.lower)")
        #expect(large.upper == Double(n + 1) - large.lower)
        #expect(large.coverage >= 0.95 && large.coverage < 0.96, "\(large.coverage)")
    }

    @Test func tiesAndEqualValuesGiveAnIntervalOfThoseValues() throws {
        let equal = try #require(MedianInterval(Array(repeating: 0.97, count: 9)))
        #expect(equal.lower == 0.97 && equal.upper == 0.97)
        #expect(MedianInterval.verdict(Array(repeating: 0.97, count: 9), atLeast: 0.97) == .met, "a tie at the goal reaches it")
        #expect(MedianInterval.verdict(Array(repeating: 0.97, count: 5), atLeast: 0.97) == .undecided, "too few")
    }

    /// Seeded: 20,000 samples of each size from a skewed distribution (log-normal, median 1);
    /// the share whose interval holds the true median is at least the exact coverage less
    /// sampling error (4 standard errors), at the edges and in the middle.
    @Test func coverageHoldsOnSeededSamples() throws {
        var random = SeededRandom(seed: 46)
        for n in [6, 7, 8, 17, 25, 60] {
            var covered = 0, coverage = 0.0
            let trials = 20_000
            for _ in 0..<trials {
                let values = (0..<n).map { _ in exp(0.3 * random.normal()) }
                let interval = try #require(MedianInterval(values))
                coverage = interval.coverage
                if interval.lower <= 1 && 1 <= interval.upper { covered += 1 }
            }
            let share = Double(covered) / Double(trials)
            let standardError = (coverage * (1 - coverage) / Double(trials)).squareRoot()
            #expect(coverage >= 0.95, "n = \(n)")
            #expect(share >= coverage - 4 * standardError, "n = \(n): \(share) of intervals held the median; exact \(coverage)")
            #expect(share <= coverage + 4 * standardError, "n = \(n): \(share) against exact \(coverage)")
        }
    }

    /// The verdict a benchmark prints: met only when the whole interval reaches the goal, missed
    /// only when it falls short, undecided between — a 0.956× median of seven noisy pairs is not
    /// a miss.
    @Test func aGoalIsMetMissedOrUndecidedByTheWholeInterval() {
        let noisy = [0.62, 0.956, 1.003, 0.876, 1.167, 0.929, 1.061]
        #expect(MedianInterval.verdict(noisy, atLeast: 0.97) == .undecided)
        #expect(MedianInterval.verdict(noisy.map { $0 + 0.6 }, atLeast: 0.97) == .met)
        #expect(MedianInterval.verdict(noisy.map { $0 - 0.6 }, atLeast: 0.97) == .missed)
        // One pair below the goal among seven leaves it undecided ([x₁, x₇] at n = 7).
        #expect(MedianInterval.verdict([0.96, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], atLeast: 0.97) == .undecided)
        #expect(MedianInterval.verdict([0.97, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], atLeast: 0.97) == .met)
    }
}
