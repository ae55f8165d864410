import ChatEvalCore
import Foundation
import Testing

/// The joint relabelling family (Westfall–Young min-P) at its edges: exact small cases worked by
/// hand, tests that move together paying once, tests that do not paying for both, pass counts,
/// no change at all, and the sampled path.
@Suite struct JointPermutationTests {
    /// One stratum of three base then three head units.
    let threeAndThree = JointPermutation.Stratum(isHead: [false, false, false, true, true, true])

    @Test func oneTestWithEveryHeadValueLargerIsOneInTwenty() {
        let result = JointPermutation.adjust(
            strata: [threeAndThree], tests: [.rank(parts: [.init(stratum: 0, values: [1, 2, 3, 4, 5, 6])], worse: .larger)], seed: 1)
        #expect(result.exact && result.labelings == 20)
        // C(6, 3) = 20 arrangements; only the observed one puts the three largest on head.
        #expect(abs(result.adjusted[0].worse - 1.0 / 20) < 1e-12)
        #expect(abs(result.adjusted[0].better - 1) < 1e-12)
    }

    /// Two metrics of the same replays that move together: the family costs what one test costs
    /// (Bonferroni or Holm would double it to 2/20).
    @Test func testsThatMoveTogetherPayOnce() {
        let values: [Double?] = [1, 2, 3, 4, 5, 6]
        let rates: [Double?] = [60, 50, 40, 30, 20, 10]  // a rate: smaller is worse
        let result = JointPermutation.adjust(
            strata: [threeAndThree],
            tests: [
                .rank(parts: [.init(stratum: 0, values: values)], worse: .larger),
                .rank(parts: [.init(stratum: 0, values: rates)], worse: .smaller),
            ], seed: 1)
        #expect(abs(result.adjusted[0].worse - 1.0 / 20) < 1e-12)
        #expect(abs(result.adjusted[1].worse - 1.0 / 20) < 1e-12)
    }

    /// Two extreme tests in separate strata (independent): P(either reaches 1/20) = 1 − (19/20)².
    @Test func independentTestsPayForBoth() {
        let result = JointPermutation.adjust(
            strata: [threeAndThree, threeAndThree],
            tests: [
                .rank(parts: [.init(stratum: 0, values: [1, 2, 3, 4, 5, 6])], worse: .larger),
                .rank(parts: [.init(stratum: 1, values: [1, 2, 3, 4, 5, 6])], worse: .larger),
            ], seed: 1)
        #expect(result.labelings == 400)
        #expect(abs(result.adjusted[0].worse - (1 - 0.95 * 0.95)) < 1e-12)
        #expect(abs(result.adjusted[1].worse - (1 - 0.95 * 0.95)) < 1e-12)
    }

    /// A check passing on all three base replays and no head replay: Fisher's one-sided 1/20.
    @Test func aCheckThatStoppedPassingIsFishersTail() {
        let result = JointPermutation.adjust(
            strata: [threeAndThree], tests: [.count(stratum: 0, passed: [true, true, true, false, false, false])], seed: 1)
        #expect(abs(result.adjusted[0].worse - 1.0 / 20) < 1e-12)
        #expect(abs(result.observed[0].worse - 1.0 / 20) < 1e-12)
    }

    /// Ties everywhere (the same value on every replay): nothing can be shown either way.
    @Test func tiedValuesShowNothing() {
        let result = JointPermutation.adjust(
            strata: [threeAndThree], tests: [.rank(parts: [.init(stratum: 0, values: [5, 5, 5, 5, 5, 5])], worse: .larger)], seed: 1)
        #expect(result.adjusted[0].worse == 1 && result.adjusted[0].better == 1)
    }

    /// One value per side: two arrangements, the observed one of them — never below 1/2.
    @Test func oneValuePerSideCannotDecide() {
        let result = JointPermutation.adjust(
            strata: [.init(isHead: [false, true])], tests: [.rank(parts: [.init(stratum: 0, values: [1, 9])], worse: .larger)], seed: 1)
        #expect(result.exact && result.labelings == 2)
        #expect(abs(result.adjusted[0].worse - 0.5) < 1e-12)
    }

    /// Too many arrangements to enumerate: drawn from the seed, the same seed the same figures,
    /// and a clear shift still small; an absent value (a busy replay's) is left out.
    @Test func theSampledPathIsSeededAndAgreesWithTheShift() {
        let labels = (0..<40).map { $0 >= 20 }
        var values: [Double?] = (0..<40).map { Double($0 % 20) + ($0 >= 20 ? 12 : 0) }
        values[3] = nil
        let test = JointPermutation.Test.rank(parts: [.init(stratum: 0, values: values)], worse: .larger)
        let first = JointPermutation.adjust(strata: [.init(isHead: labels)], tests: [test], samples: 2_000, seed: 7)
        let again = JointPermutation.adjust(strata: [.init(isHead: labels)], tests: [test], samples: 2_000, seed: 7)
        #expect(!first.exact && first.labelings == 2_000)
        #expect(first.adjusted[0].worse == again.adjusted[0].worse)
        #expect(first.adjusted[0].worse <= 1.0 / 2_001 + 1e-12)
        #expect(first.adjusted[0].better > 0.5)
    }

    /// Identical sides: sampling stops early (every test far from any level), p near 1.
    @Test func noChangeStopsDrawingEarly() {
        let labels = (0..<40).map { $0 % 2 == 0 }
        let values: [Double?] = (0..<40).map { Double($0 / 2) }
        let result = JointPermutation.adjust(
            strata: [.init(isHead: labels)], tests: [.rank(parts: [.init(stratum: 0, values: values)], worse: .larger)],
            samples: 10_000, seed: 3)
        #expect(result.labelings < 10_000)
        #expect(result.adjusted[0].worse > 0.2)
    }

    /// The family's layout puts every rank part of a conversation in one row of lanes, four to a
    /// chunk: six parts in one stratum take two chunks, and a stratum holding only a check sits
    /// between two such blocks. Each test's own p-values must not depend on which lane it got:
    /// in the family they equal, to the bit, what the test gives alone (one lane of one chunk).
    @Test func aTestsPValuesDoNotDependOnItsLane() {
        let strata = [
            JointPermutation.Stratum(isHead: (0..<10).map { $0 % 2 == 0 }),
            JointPermutation.Stratum(isHead: [true, false, true, false, false, true]),
            JointPermutation.Stratum(isHead: (0..<8).map { $0 >= 4 }),
        ]
        func values(_ count: Int, salt: Int, shift: Double) -> [Double?] {
            (0..<count).map { Double(($0 * 5 + salt) % 7) + ($0.isMultiple(of: 2) ? shift : 0) }
        }
        var withMissing = values(8, salt: 3, shift: 1)
        withMissing[2] = nil
        var tests: [JointPermutation.Test] = (0..<6).map { index in
            .rank(
                parts: [.init(stratum: 0, values: values(10, salt: index, shift: Double(index) / 2))], worse: index < 3 ? .larger : .smaller
            )
        }
        tests.append(.count(stratum: 1, passed: [true, false, true, true, false, nil]))
        tests.append(
            .rank(
                parts: [.init(stratum: 2, values: withMissing), .init(stratum: 0, values: values(10, salt: 9, shift: 2))], worse: .larger))
        tests.append(.rank(parts: [.init(stratum: 2, values: values(8, salt: 1, shift: -1))], worse: .smaller))
        let family = JointPermutation.adjust(strata: strata, tests: tests, samples: 200, seed: 3)
        for (index, test) in tests.enumerated() {
            let alone = JointPermutation.adjust(strata: strata, tests: [test], samples: 200, seed: 3)
            #expect(family.observed[index] == alone.observed[0], "test \(index)")
        }
        // The tests differ, so equal figures are not all the same figure.
        #expect(Set(family.observed.map(\.worse)).count > 4)
    }

    /// A seed decides as it always has: a mixed family on the sampled path (strata of 12, 10 and
    /// 6 replays, a rank test over all three with a missing value, one over a single stratum, two
    /// checks, one with an ungraded replay), pinned to what the implementation before the flat
    /// layout (`9d0cee1`) gave, draws and counts alike. A change in the order of a sum, a draw or a
    /// shuffle moves these counts.
    @Test func aSeededFamilyGivesTheFiguresItAlwaysGave() {
        let strata = [
            JointPermutation.Stratum(isHead: (0..<12).map { $0 % 2 == 1 }),
            JointPermutation.Stratum(isHead: (0..<10).map { $0 >= 5 }),
            JointPermutation.Stratum(isHead: (0..<6).map { $0 >= 3 }),
        ]
        func values(_ count: Int, shift: Double, salt: Int) -> [Double?] {
            (0..<count).map { Double(($0 * 7 + salt) % count) + ($0 >= count / 2 ? shift : 0) }
        }
        var second = values(10, shift: 2, salt: 1)
        second[4] = nil
        let tests: [JointPermutation.Test] = [
            .rank(
                parts: [
                    .init(stratum: 0, values: values(12, shift: 0, salt: 3)), .init(stratum: 1, values: second),
                    .init(stratum: 2, values: values(6, shift: 1.5, salt: 2)),
                ], worse: .larger),
            .rank(parts: [.init(stratum: 1, values: values(10, shift: -3, salt: 5))], worse: .smaller),
            .count(stratum: 0, passed: (0..<12).map { $0 % 2 == 0 || $0 == 3 }),
            .count(stratum: 2, passed: [true, true, nil, false, false, true]),
        ]
        let result = JointPermutation.adjust(strata: strata, tests: tests, samples: 3_000, seed: 11)
        #expect(!result.exact && result.labelings == 896)
        // Sampled adjusted p-values are (reached + 1) / (draws + 1): compared as those counts.
        #expect(result.adjusted.map { ($0.worse * 897).rounded() } == [409, 92, 21, 409])
        #expect(result.adjusted.map { ($0.better * 897).rounded() } == [801, 897, 897, 897])
        let observed: [(worse: Double, better: Double)] = [
            (0.422663107110338, 0.57733689288966206), (0.046846309746624119, 0.95315369025337593),
            (0.0075757575757575508, 0.99999999999999711), (0.30000000000000004, 1),
        ]
        for (given, expected) in zip(result.observed, observed) {
            #expect(abs(given.worse - expected.worse) < 1e-12 && abs(given.better - expected.better) < 1e-12)
        }
    }
}

/// The run-to-run spread from a base's history: robust to a real step, nil when too short.
@Suite struct RunToRunSpreadTests {
    @Test func successiveDifferencesIgnoreOneStep() throws {
        // Alternating ±2% around a level, with a 30% step halfway: the step is one difference of nine.
        let levels = (0..<10).map { index -> [String: [Metric: Double]] in
            let level = (index % 2 == 0 ? 1.02 : 0.98) * (index >= 5 ? 1.3 : 1)
            return ["s": [.timeToFirstToken: level]]
        }
        let spread = try #require(RunToRunSpread.fromHistory(levels))
        #expect(spread.source == .history && spread.runs == 10)
        let ttft = try #require(spread.spreads[.timeToFirstToken])
        // |log(1.02/0.98)| = 0.04 for eight of the nine differences: 1.4826 · 0.04 / √2 ≈ 0.042.
        #expect(abs(ttft - 1.4826 * log(1.02 / 0.98) / 2.0.squareRoot()) < 1e-9)
        #expect(spread.spreads[.decodeTokensPerSecond] == nil)
    }

    /// A history's typical spread may widen the stated default, never narrow it (3 of 20 real
    /// pairs of identical runs were "regressions" at the history's 1.9%).
    @Test func aHistoryNeverNarrowsTheStatedSpread() {
        let history = RunToRunSpread(spreads: [.timeToFirstToken: 0.019, .decodeTokensPerSecond: 0.08], source: .history, runs: 17)
        let floored = history.atLeast(.stated)
        #expect(floored.spreads[.timeToFirstToken] == 0.03)
        #expect(floored.spreads[.decodeTokensPerSecond] == 0.08)
        #expect(floored.source == .history && floored.runs == 17)
    }

    @Test func threeRunsAreTooFewForAnEstimate() {
        #expect(RunToRunSpread.fromHistory(Array(repeating: ["s": [.timeToFirstToken: 1.0]], count: 3)) == nil)
    }

    /// Issue 41, item 5: the shift separately recorded runs can call. With a normal tail only, it
    /// is z·√(2σ² + se²); with the measured heavy tail, the simulated chance that identical code
    /// passes it — 8% of runs 13–18% slower, each run's normal offset and the within-run error —
    /// stays within the rate, and the bound lies past the largest disturbed offset.
    @Test func theCallableShiftHoldsItsRateUnderTheHeavyTail() throws {
        let normal = RunToRunSpread(spreads: [.timeToFirstToken: 0.03], source: .stated, runs: 0)
        let plain = try #require(normal.callableShift(.timeToFirstToken, baseRuns: 1, headRuns: 1, withinRun: 0.02, rate: 0.001))
        #expect(abs(plain - RankShift.normalQuantile(0.999) * (2 * 0.03 * 0.03 + 0.02 * 0.02).squareRoot()) < 1e-9)
        #expect(normal.callableShift(.reuseRatio, baseRuns: 1, headRuns: 1, withinRun: 0.02, rate: 0.001) == nil)
        #expect(normal.callableShift(.timeToFirstToken, baseRuns: 1, headRuns: 1, withinRun: .infinity, rate: 0.001) == .infinity)

        let stated = RunToRunSpread.stated
        let rate = 0.01 / 7
        let bound = try #require(stated.callableShift(.timeToFirstToken, baseRuns: 1, headRuns: 1, withinRun: 0.02, rate: rate))
        #expect(bound > log1p(0.18))
        // Peak memory is not slowed by a busy machine: its bound has no tail.
        let memory = try #require(stated.callableShift(.peakMemory, baseRuns: 1, headRuns: 1, withinRun: 0.02, rate: rate))
        #expect(abs(memory - RankShift.normalQuantile(1 - rate) * (2 * 0.01 * 0.01 + 0.02 * 0.02).squareRoot()) < 1e-9)
        var random = SeededRandom(seed: 5)
        let draws = 400_000
        var passed = 0
        func offset(_ random: inout SeededRandom) -> Double {
            var value = 0.03 * random.normal()
            if random.uniform() < 0.08 { value += log1p(0.13 + 0.05 * random.uniform()) }
            return value
        }
        for _ in 0..<draws {
            let head = offset(&random), base = offset(&random)
            if head - base + 0.02 * random.normal() > bound { passed += 1 }
        }
        #expect(Double(passed) / Double(draws) <= rate, "\(passed) of \(draws) past the bound")
        // Pooling runs a side shrinks both terms.
        let pooled = try #require(stated.callableShift(.timeToFirstToken, baseRuns: 3, headRuns: 3, withinRun: 0.02, rate: rate))
        #expect(pooled < bound)
    }

    /// A history's spread has no tail of its own; floored by the stated one, it takes the stated tail.
    @Test func aHistoryFlooredByTheStatedSpreadTakesItsTail() {
        let history = RunToRunSpread(spreads: [.timeToFirstToken: 0.019], source: .history, runs: 17)
        #expect(history.heavyTail == nil)
        #expect(history.atLeast(.stated).heavyTail == RunToRunSpread.HeavyTail.measured)
    }

    @Test func twoRunsAddBothSpreads() throws {
        let error = try #require(RunToRunSpread.stated.standardError(.timeToFirstToken, baseRuns: 1, headRuns: 1))
        #expect(abs(error - 0.03 * 2.0.squareRoot()) < 1e-12)
        #expect(RunToRunSpread.stated.standardError(.reuseRatio, baseRuns: 1, headRuns: 1) == nil)
    }
}
