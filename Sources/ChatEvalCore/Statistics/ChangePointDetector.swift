import Foundation

/// Where a noisy series (one value per commit, oldest first) steps to another level.
///
/// E-divisive (Matteson & James, "A Nonparametric Approach for Multiple Change Point Analysis of
/// Multivariate Data", JASA 2014), as MongoDB's performance signal processing and Hunter use it,
/// followed by the rank-test confirmation that Chromium's dashboard and asv apply:
///
/// 1. **Locate.** In a segment, the split τ maximising the energy statistic
///    Q(τ) = a·b/(a+b) · (2·mean|x − y| − mean|x − x′| − mean|y − y′|) over the a values left of τ
///    (x) and the b values from τ on (y) — a distance between the two sides' distributions that
///    needs no assumption about the noise and is not fooled by a single outlier as neighbour
///    differences are.
/// 2. **Decide.** A permutation test: the segment's values are shuffled `permutations` times and
///    the split accepted when the observed maximum of Q is beaten by at most α of the shuffles
///    (p = (beaten + 1)/(permutations + 1)). Shuffles stop as soon as the answer cannot be
///    "significant" any more, so flat stretches cost a few dozen shuffles. Accepted splits are
///    searched again on both sides (binary segmentation).
/// 3. **Confirm.** Each split is tested again between its two neighbouring segments with the
///    Mann-Whitney test (`RankShift`, exact for small samples) — a step must move the level, not
///    only the spread — and its shift is estimated (Hodges-Lehmann) with a confidence interval.
///    Splits that are not confirmed are dropped, weakest first, and the neighbours re-tested.
///
/// Q is computed for every split of a segment in O(n log n): the within-side sums of distances
/// come from prefix and suffix insertions into a Fenwick tree over the values' ranks, and the
/// cross sum is the total minus both. Deterministic: shuffles use `SeededRandom(seed)`.
public struct ChangePointDetector: Sendable {
    /// Significance of each split (permutation test) and of its confirmation (rank test).
    public var alpha: Double
    /// Most shuffles per permutation test (p resolution 1/(permutations + 1)).
    public var permutations: Int
    /// Fewest values on each side of a split.
    public var minimumSegment: Int
    public var seed: UInt64
    /// How a step's change is estimated (its direction, size and interval, all from one estimate).
    public var estimator: StepEstimator

    public init(
        alpha: Double = 0.01, permutations: Int = 199, minimumSegment: Int = 3, seed: UInt64 = 0xC4A7_E7A1,
        estimator: StepEstimator = .shift
    ) {
        self.alpha = alpha
        self.permutations = permutations
        self.minimumSegment = max(2, minimumSegment)
        self.seed = seed
        self.estimator = estimator
    }

    /// The estimate a step reports.
    public enum StepEstimator: String, Sendable, Hashable, Codable {
        /// Hodges-Lehmann's shift with Moses' interval (the rank test inverted): for continuous
        /// values such as times and rates.
        case shift
        /// The difference of the segments' means with a seeded bootstrap percentile interval: for
        /// values that take a few levels (pass rates), where segments can differ in how often
        /// each level occurs while no location shift fits them — the median pairwise difference
        /// is then 0 and its inverted interval empty, though the rank test sees the change.
        case mean
    }

    /// A step: the level changed between the value before `index` and the value at `index`.
    public struct ChangePoint: Sendable, Hashable, Codable {
        /// Position in the series of the first value of the new level (the suspect).
        public var index: Int
        /// Permutation-test p-value of the split when it was found.
        public var splitPValue: Double
        /// The shift (after − before) between the neighbouring segments, with its interval and
        /// rank-test p-value.
        public var shift: RankShift
        /// Medians of the neighbouring segments.
        public var medianBefore: Double
        public var medianAfter: Double
        /// The change after − before by the detector's estimator, with its 95% interval: the one
        /// estimate the step's direction, size and interval are read from.
        public var change: StepChange

        /// after ÷ before − 1, or nil when the level before is 0.
        public var relativeChange: Double? {
            medianBefore != 0 ? medianAfter / medianBefore - 1 : nil
        }
    }

    /// The steps of `series`, in series order, each `index` a position in `series`. A non-finite
    /// value is a gap: left out of the test, never read as a level (0 would fake two steps).
    public func changePoints(in series: [Double]) -> [ChangePoint] {
        let positions = series.indices.filter { series[$0].isFinite }
        guard positions.count < series.count else { return changePoints(inFinite: series) }
        return changePoints(inFinite: positions.map { series[$0] }).map { point in
            var point = point
            point.index = positions[point.index]
            return point
        }
    }

    private func changePoints(inFinite values: [Double]) -> [ChangePoint] {
        var random = SeededRandom(seed: seed)
        var splits: [(index: Int, p: Double)] = []
        var pending = [0..<values.count]
        while let segment = pending.popLast() {
            guard let (offset, p) = significantSplit(Array(values[segment]), random: &random) else { continue }
            let index = segment.lowerBound + offset
            splits.append((index, p))
            pending.append(segment.lowerBound..<index)
            pending.append(index..<segment.upperBound)
        }
        splits.sort { $0.index < $1.index }
        return confirmed(splits, in: values)
    }

    // MARK: Confirmation

    /// Splits whose neighbouring segments differ by the rank test, weakest dropped first.
    private func confirmed(_ candidates: [(index: Int, p: Double)], in values: [Double]) -> [ChangePoint] {
        var splits = candidates
        while true {
            var points: [ChangePoint] = []
            var weakest: (position: Int, p: Double)?
            for (position, split) in splits.enumerated() {
                let start = position == 0 ? 0 : splits[position - 1].index
                let end = position + 1 < splits.count ? splits[position + 1].index : values.count
                let before = Array(values[start..<split.index]), after = Array(values[split.index..<end])
                let tested = RankShift(strata: [(before, after)])
                // Confirmed: significant, and the estimated change's interval on one side of 0 (a
                // step must move the level, and its estimate says which way).
                let change = tested.map { estimate(before: before, after: after, shift: $0, seed: UInt64(split.index)) }
                guard let shift = tested, let change, shift.pValue < alpha, change.lower > 0 || change.upper < 0 else {
                    let p = tested?.pValue ?? 1
                    if p > (weakest?.p ?? -1) { weakest = (position, p) }
                    continue
                }
                points.append(
                    ChangePoint(
                        index: split.index, splitPValue: split.p, shift: shift,
                        medianBefore: Distribution(before)?.median ?? .nan, medianAfter: Distribution(after)?.median ?? .nan, change: change
                    ))
            }
            guard let weakest else { return points }
            splits.remove(at: weakest.position)
        }
    }

    /// The change between two segments by `estimator`.
    private func estimate(before: [Double], after: [Double], shift: RankShift, seed: UInt64) -> StepChange {
        switch estimator {
        case .shift:
            return StepChange(estimate: shift.estimate, lower: shift.lower, upper: shift.upper)
        case .mean:
            func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
            var random = SeededRandom(seed: self.seed ^ seed)
            let resamples = 2000
            var differences: [Double] = []
            differences.reserveCapacity(resamples)
            for _ in 0..<resamples {
                var a = 0.0, b = 0.0
                for _ in before.indices { a += before[Int(random.next() % UInt64(before.count))] }
                for _ in after.indices { b += after[Int(random.next() % UInt64(after.count))] }
                differences.append(b / Double(after.count) - a / Double(before.count))
            }
            differences.sort()
            return StepChange(
                estimate: mean(after) - mean(before),
                lower: differences[Int(Double(resamples) * 0.025)], upper: differences[Int(Double(resamples) * 0.975) - 1])
        }
    }

    // MARK: Locating and deciding

    /// The best split of `segment` (an offset into it) when the permutation test finds it
    /// significant, with its p-value.
    private func significantSplit(_ segment: [Double], random: inout SeededRandom) -> (Int, Double)? {
        guard segment.count >= 2 * minimumSegment else { return nil }
        let energy = EnergyStatistic(segment)
        guard let (best, observed) = energy.best(of: segment, minimumSegment: minimumSegment), observed > 0 else { return nil }
        // Beaten by more than this many shuffles, the split cannot be significant: stop there.
        let allowed = Int((alpha * Double(permutations + 1)).rounded(.down)) - 1
        guard allowed >= 0 else { return nil }
        var shuffled = segment
        var beaten = 0
        for _ in 0..<permutations {
            for i in stride(from: shuffled.count - 1, to: 0, by: -1) {
                shuffled.swapAt(i, Int(random.next() % UInt64(i + 1)))
            }
            if let (_, q) = energy.best(of: shuffled, minimumSegment: minimumSegment), q >= observed {
                beaten += 1
                if beaten > allowed { return nil }
            }
        }
        return (best, Double(beaten + 1) / Double(permutations + 1))
    }
}
