import Foundation
import Synchronization

/// A rank test of "head is shifted from base", with the shift's estimate and confidence interval,
/// on samples split into strata (the conversations of a suite: values of different conversations
/// measure different things, so only values of the same stratum are compared with each other).
///
/// The test is van Elteren's stratified Wilcoxon–Mann-Whitney test: each stratum contributes its
/// Mann-Whitney count U_s (pairs where head beats base, ties counting ½) weighted by about
/// 1/(N_s + 1), the locally most powerful weighting for a shift common to all strata. The weights
/// are rounded to small integers (all 1 when the strata are of one size, the usual case), which
/// keeps the test valid (any fixed weights do) and lets its null distribution be computed exactly.
///
/// **p-value.** Exact whenever the null distribution is small enough to enumerate (the permutation
/// distribution of each stratum — with its ties — convolved over the strata): one value per side
/// per stratum is then exactly a sign test, and tie-heavy samples (pass counts, token counts)
/// get their true discreteness rather than a normal curve's. Larger samples use the normal
/// approximation with the tie-corrected variance and a continuity correction.
///
/// **Estimate and interval** invert the same statistic (Hodges-Lehmann and Moses): U_s(δ) counts
/// the pairwise differences head − base above δ, so the shift at which the statistic meets its
/// null mean is the weighted median of all within-stratum pairwise differences, and the interval
/// ends are the weighted quantiles at which it meets the critical values — taken from the tie-free
/// null distribution, since a shift by any δ ≠ 0 breaks the ties. An interval therefore excludes 0
/// exactly when the test at that level would reject (up to the ties at 0 itself).
///
/// **Smallest achievable p-value** (`minimumPValue`): what the most extreme arrangement of these
/// very values would give. A test that cannot reach a family's level however the values fall is
/// left out of the family (Tarone's rule, see `MultipleTesting`) instead of diluting it.
///
/// Written here rather than taken from a library: no Swift package in reach offers stratified
/// rank tests, their exact distributions or their inversion.
public struct RankShift: Sendable, Hashable, Codable {
    /// Estimated shift head − base (in the units of the values given).
    public var estimate: Double
    /// Confidence interval of the shift; an end is infinite when the samples cannot bound it.
    public var lower: Double
    public var upper: Double
    /// Two-sided p-value of "no shift".
    public var pValue: Double
    /// The smallest two-sided p-value any assignment of these values to the two sides could give.
    public var minimumPValue: Double
    /// True when `pValue` comes from the exact null distribution (else the normal approximation).
    public var exact: Bool
    /// The confidence level of `lower...upper`.
    public var confidence: Double
    /// Values compared on each side, over all strata.
    public var baseCount: Int
    public var headCount: Int
    /// Strata with values on both sides.
    public var strata: Int

    /// Compares `strata` (pairs of base and head samples; a stratum lacking either side is left
    /// out, non-finite values too). Returns nil when no stratum has values on both sides.
    public init?(strata given: [(base: [Double], head: [Double])], confidence: Double = 0.95) {
        let usable = given.map { (base: $0.base.filter(\.isFinite), head: $0.head.filter(\.isFinite)) }
            .filter { !$0.base.isEmpty && !$0.head.isEmpty }
        guard !usable.isEmpty else { return nil }
        self.confidence = confidence
        baseCount = usable.reduce(0) { $0 + $1.base.count }
        headCount = usable.reduce(0) { $0 + $1.head.count }
        strata = usable.count

        let weights = Self.integerWeights(usable.map { $0.base.count + $0.head.count })
        let pairs = PairwiseShifts(usable, weights: weights)
        // The statistic in units of pair weight (Σ k_s U_s) is half the doubled one.
        estimate = pairs.differences.quantile(at: pairs.mean / 2)
        let sizes = usable.map { StratumSize(base: $0.base.count, head: $0.head.count) }
        (lower, upper) = Self.interval(pairs, sizes: sizes, weights: weights, tail: (1 - confidence) / 2)
        (exact, pValue, minimumPValue) = Self.test(pairs, strata: usable, sizes: sizes, weights: weights)
    }

    /// The shift's interval at one-sided non-coverage `tail`: Moses' interval from the exact
    /// tie-free null distribution where it can be enumerated, else from the normal approximation;
    /// an end the samples cannot bound is infinite.
    private static func interval(_ pairs: PairwiseShifts, sizes: [StratumSize], weights: [Int], tail: Double) -> (
        lower: Double, upper: Double
    ) {
        let differences = pairs.differences
        if let untied = NullDistribution.untied(sizes: sizes, weights: weights) {
            // Moses' interval from the exact tie-free distribution: the largest c with P(T < c) ≤ tail,
            // in units of pair weight (T = Σ k_s U_s takes integer values).
            let c = untied.largestLowerCritical(tail: tail)
            return (
                c.map { differences.valueReaching(cumulativeWeight: Double($0), fromTop: false) } ?? -.infinity,
                c.map { differences.valueReaching(cumulativeWeight: Double($0), fromTop: true) } ?? .infinity
            )
        }
        let z = normalQuantile(1 - tail)
        let half = z * pairs.untiedVariance.squareRoot() / 2
        return (
            differences.quantile(at: pairs.mean / 2 - half, below: -.infinity),
            differences.quantile(at: pairs.mean / 2 + half, above: .infinity)
        )
    }

    /// The test of "no shift": the two-sided p-value and the smallest any arrangement could give,
    /// from the exact null distribution (tied or not) where it can be enumerated (`exact`), else
    /// from the normal approximation with a continuity correction.
    private static func test(_ pairs: PairwiseShifts, strata: [(base: [Double], head: [Double])], sizes: [StratumSize], weights: [Int])
        -> (exact: Bool, pValue: Double, minimumPValue: Double)
    {
        let mean = pairs.mean
        let distribution =
            pairs.hasTies
            ? NullDistribution.tied(strata: strata, weights: weights)
            : NullDistribution.untied(sizes: sizes, weights: weights).map { $0.doubled() }
        if let distribution {
            return (
                true, distribution.twoSidedPValue(observed: pairs.observed, mean: Int(mean.rounded())),
                distribution.minimumTwoSidedPValue(mean: Int(mean.rounded()))
            )
        }
        let continuity = Double(weights.min() ?? 1)  // half a unit of U, doubled
        let sd = pairs.tiedVariance.squareRoot()
        guard sd > 0 else {
            // Every value of every stratum is equal: nothing can suggest a shift.
            return (false, 1, 1)
        }
        return (
            false, min(1, 2 * normalUpperTail(max(abs(Double(pairs.observed) - mean) - continuity, 0) / sd)),
            // The most extreme arrangement: every head value above (or below) every base value.
            // (the doubled statistic then sits at 0 or at 2·mean).
            min(1, 2 * normalUpperTail(max(mean - continuity, 0) / sd))
        )
    }

    /// Weights about proportional to 1/(N_s + 1), as small positive integers: all 1 when every
    /// stratum has the same size N.
    static func integerWeights(_ sizes: [Int]) -> [Int] {
        guard let largest = sizes.max(), Set(sizes).count > 1 else { return sizes.map { _ in 1 } }
        return sizes.map { max(1, Int((4 * Double(largest + 1) / Double($0 + 1)).rounded())) }
    }

    /// Σ (t³ − t) over groups of tied values (for the variance's tie correction).
    static func tieTerm(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        var total = 0.0, start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count && sorted[end] == sorted[start] { end += 1 }
            let t = Double(end - start)
            total += t * t * t - t
            start = end
        }
        return total
    }

    // MARK: The normal distribution

    /// P(Z > z) for a standard normal Z.
    public static func normalUpperTail(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }

    /// The z with P(Z ≤ z) = p (Acklam's rational approximation refined by one Halley step;
    /// accurate to about 1e-15). p outside (0, 1) gives ∓∞.
    public static func normalQuantile(_ p: Double) -> Double {
        if p <= 0 { return -.infinity }
        if p >= 1 { return .infinity }
        let a = [
            -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
            2.506628277459239e+00,
        ]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [
            -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
            2.938163982698783e+00,
        ]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            x =
                (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x =
                (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = (-2 * log(1 - p)).squareRoot()
            x =
                -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let error = 0.5 * erfc(-x / 2.0.squareRoot()) - p
        let u = error * (2 * Double.pi).squareRoot() * exp(x * x / 2)
        x -= u / (1 + x * u / 2)
        return x
    }
}

/// The pairwise differences head − base of every stratum, each with its stratum's weight, sorted,
/// and the stratified statistic 2·Σ k_s U_s with its null mean and variances (ties counted half).
private struct PairwiseShifts {
    var differences: WeightedValues
    /// 2 · Σ k_s U_s (a tie counts 1 of 2).
    var observed = 0
    /// Its null mean, Σ k_s n_s m_s.
    var mean = 0.0
    /// Its null variance with and without the tie correction.
    var tiedVariance = 0.0, untiedVariance = 0.0
    var hasTies = false

    init(_ strata: [(base: [Double], head: [Double])], weights: [Int]) {
        var values: [Double] = []
        var pairWeights: [Double] = []
        for (stratum, weight) in zip(strata, weights) {
            let n = Double(stratum.base.count), m = Double(stratum.head.count), total = n + m
            for y in stratum.head {
                for x in stratum.base {
                    let difference = y - x
                    values.append(difference)
                    pairWeights.append(Double(weight))
                    observed += weight * (difference > 0 ? 2 : difference == 0 ? 1 : 0)
                }
            }
            let k = Double(weight)
            mean += k * n * m
            let ties = RankShift.tieTerm(stratum.base + stratum.head)
            if ties > 0 { hasTies = true }
            untiedVariance += 4 * k * k * n * m * (total + 1) / 12
            tiedVariance += 4 * k * k * n * m / 12 * ((total + 1) - ties / (total * (total - 1)))
        }
        if weights.allSatisfy({ $0 == weights[0] }) {
            values.sort()  // one weight (strata of one size, the usual case): a plain sort
        } else {
            let order = values.indices.sorted { values[$0] < values[$1] }
            values = order.map { values[$0] }
            pairWeights = order.map { pairWeights[$0] }
        }
        differences = WeightedValues(sorted: values, weights: pairWeights)
    }
}
