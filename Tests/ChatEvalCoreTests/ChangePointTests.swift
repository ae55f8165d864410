import ChatEvalCore
import Foundation
import Testing

/// E-divisive change points on generated per-commit medians: benchmark-like noise (log-normal,
/// about 5% spread, with occasional outliers), steps of a known size at a known commit.
@Suite struct ChangePointTests {
    /// `count` values around `level`, multiplied by `stepFactor` from `stepAt` on; one value in
    /// 30 is an outlier 30–60% above its level (a busy runner).
    static func history(count: Int, stepAt: Int? = nil, stepFactor: Double = 1.2, noise: Double = 0.05, seed: UInt64) -> [Double] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { index in
            let level = 100 * (stepAt.map { index >= $0 } == true ? stepFactor : 1)
            var value = level * exp(noise * random.normal())
            if random.uniform() < 1.0 / 30 { value *= 1.3 + 0.3 * random.uniform() }
            return value
        }
    }

    @Test func aStepAtCommit40Of60IsFoundThereAndNowhereElse() {
        let series = Self.history(count: 60, stepAt: 40, seed: 1)
        let points = ChangePointDetector().changePoints(in: series)
        #expect(points.map(\.index) == [40])
        let step = points.first
        #expect(step.map { $0.shift.estimate > 0 && $0.shift.lower > 0 } == true, "a step up, its interval above 0")
        #expect(step?.relativeChange.map { abs($0 - 0.2) < 0.06 } == true, "about +20%: \(String(describing: step?.relativeChange))")
    }

    /// Gaps (NaN, ±∞) are left out, and a step is named at its position in the series given.
    /// Before, a gap was read as 0: a run of six gaps hid the real step at 40 (no step found).
    @Test func gapsAreLeftOutAndTheStepKeepsItsPosition() {
        var series = Self.history(count: 60, stepAt: 40, seed: 1)
        for index in 12..<18 { series[index] = .nan }
        series[50] = .infinity
        series[51] = -.infinity
        #expect(ChangePointDetector().changePoints(in: series).map(\.index) == [40])
        var flat = Self.history(count: 60, seed: 3)
        for index in 25..<31 { flat[index] = .nan }
        #expect(ChangePointDetector().changePoints(in: flat).isEmpty)
    }

    @Test func aStepDownIsFoundToo() {
        let points = ChangePointDetector().changePoints(in: Self.history(count: 60, stepAt: 25, stepFactor: 0.8, seed: 11))
        #expect(points.map(\.index) == [25])
        #expect(points.first.map { $0.shift.estimate < 0 } == true)
    }

    @Test func twoStepsAreBothFound() {
        var series = Self.history(count: 80, stepAt: 30, seed: 21)
        for index in 55..<80 { series[index] *= 0.75 }
        #expect(ChangePointDetector().changePoints(in: series).map(\.index) == [30, 55])
    }

    @Test func aNoisyFlatHistoryHasNoStep() {
        #expect(ChangePointDetector().changePoints(in: Self.history(count: 60, noise: 0.1, seed: 5)).isEmpty)
    }

    @Test func aSingleOutlierIsNotAStep() {
        var series = Self.history(count: 60, seed: 8)
        series[45] *= 3
        #expect(ChangePointDetector().changePoints(in: series).isEmpty)
    }

    @Test func aConstantSeriesAndTooShortSeriesHaveNoStep() {
        #expect(ChangePointDetector().changePoints(in: Array(repeating: 1, count: 40)).isEmpty)
        #expect(ChangePointDetector().changePoints(in: [1, 2, 3, 10, 11]).isEmpty)
        #expect(ChangePointDetector().changePoints(in: []).isEmpty)
    }

    /// The false-alarm rate on flat histories of 60 commits, over 400 seeds: at α = 0.01 each
    /// history should show a step about 1% of the time. Measured here (and printed); the bound
    /// leaves room for the confirmation's and the recursion's effects but fails a detector that
    /// reacts to noise.
    @Test func falseAlarmRateOnFlatHistoriesIsAboutAlpha() {
        let seeds: [UInt64] = Array(1000..<1400)
        let alarms = seeds.filter { !ChangePointDetector().changePoints(in: Self.history(count: 60, seed: $0)).isEmpty }.count
        let rate = Double(alarms) / Double(seeds.count)
        print(
            "change points: false-alarm rate on flat 60-commit histories: "
                + "\(alarms)/\(seeds.count) = \(String(format: "%.2f%%", rate * 100))"
        )
        #expect(rate <= 0.025)
    }

    /// Over 100 histories with a 20% step at commit 40: how often it is placed exactly, within
    /// one commit (the value just before a step can be an outlier that looks like the new level;
    /// no method can tell), and how often anything else is marked too.
    @Test func detectionRatesOfATwentyPercentStep() {
        let found = (2000..<2100).map {
            ChangePointDetector().changePoints(in: Self.history(count: 60, stepAt: 40, seed: UInt64($0))).map(\.index)
        }
        let exact = found.filter { $0 == [40] }.count
        let nearby = found.filter { $0.count == 1 && abs($0[0] - 40) <= 1 }.count
        let extra = found.filter { $0.count > 1 }.count
        print(
            "change points: 20% step at commit 40 of 60, 100 histories: exactly at 40 alone \(exact), "
                + "within one commit alone \(nearby), with an extra step \(extra)"
        )
        #expect(exact >= 75)
        #expect(nearby >= 90)
        #expect(extra <= 6)
    }

    /// A 20% step among the newest commits: 5, 3 and 1 commits after it, 100 histories each.
    /// The fewer commits after the step, the less it can be told from a busy runner's outlier
    /// (one value in 30, 30–60% high): it may go unfound, but a step named elsewhere is held to
    /// the middle case's limit (`detectionRatesOfATwentyPercentStep`: at most 6 of 100).
    /// Measured 2026-11-30: 6, 2 and 1 of 100 named elsewhere; found within one commit 89, 64 and
    /// 0 (one commit after a step is no more than an outlier).
    @Test func aStepAmongTheNewestCommitsIsFoundOnlyWhereItIs() {
        for after in [5, 3, 1] {
            let stepAt = 60 - after
            let found = (3000..<3100).map {
                ChangePointDetector().changePoints(in: Self.history(count: 60, stepAt: stepAt, seed: UInt64($0))).map(\.index)
            }
            let nearby = found.filter { $0.contains { abs($0 - stepAt) <= 1 } }.count
            let misplaced = found.filter { $0.contains { abs($0 - stepAt) > 1 } }.count
            print(
                "change points: 20% step at commit \(stepAt) of 60 (\(after) after it), 100 histories: "
                    + "found within one commit \(nearby), a step named elsewhere \(misplaced)")
            #expect(misplaced <= 6, "a step at \(stepAt): \(misplaced) of 100 histories name a step elsewhere")
        }
    }
}
