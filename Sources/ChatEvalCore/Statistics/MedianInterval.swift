import Foundation

/// A distribution-free confidence interval for a median, from order statistics (the sign
/// test's interval): with n values sorted, [x₍ₖ₎, x₍ₙ₊₁₋ₖ₎] for the largest k with
/// P(B < k) ≤ (1 − confidence) / 2, B ~ Binomial(n, ½). It assumes only independent values from
/// one continuous distribution; its coverage is at least `confidence` (exactly 1 − 2·P(B < k)).
///
/// Written here rather than taken from a library: it is a few lines over an exact binomial sum,
/// and the package carries no statistics dependency.
public struct MedianInterval: Sendable, Equatable {
    public var lower: Double
    public var upper: Double
    /// The interval's exact coverage, 1 − 2·P(B < k): at least the confidence asked for.
    public var coverage: Double

    /// The interval at `confidence` over `values`; nil when there are too few for any interval
    /// to reach it (even [min, max] covers with 1 − 2·½ⁿ: 5 values reach 93.75%, 6 reach 96.9%),
    /// or when a value is not finite.
    public init?(_ values: [Double], confidence: Double = 0.95) {
        guard !values.isEmpty, values.allSatisfy(\.isFinite), confidence > 0, confidence < 1 else { return nil }
        let n = values.count
        let tail = (1 - confidence) / 2
        // P(B = j) = C(n, j)·½ⁿ for j = 0, 1, …, summed while the lower tail stays within
        // `tail`. Each term from its logarithm: ½ⁿ alone underflows to 0 past 1,074 values, and
        // a product started from it summed nothing, inverting the interval.
        var cumulative = 0.0, k = 0
        while k < n {
            let probability = exp(JointPermutation.logBinomial(n, k) - Double(n) * M_LN2)
            guard cumulative + probability <= tail * (1 + 1e-12) else { break }
            cumulative += probability
            k += 1
        }
        guard k >= 1 else { return nil }
        let sorted = values.sorted()
        lower = sorted[k - 1]
        upper = sorted[n - k]
        coverage = 1 - 2 * cumulative
    }

    /// Where `goal` lies against the interval: `met` when the whole interval reaches it, `missed`
    /// when the whole interval falls short, `undecided` when the interval holds it (or there is
    /// no interval).
    public enum GoalVerdict: String, Sendable {
        case met, missed, undecided
    }

    /// The verdict of "the median reaches `goal`" on `values` at `confidence`.
    public static func verdict(_ values: [Double], atLeast goal: Double, confidence: Double = 0.95) -> GoalVerdict {
        guard let interval = MedianInterval(values, confidence: confidence) else { return .undecided }
        if interval.lower >= goal { return .met }
        if interval.upper < goal { return .missed }
        return .undecided
    }
}
