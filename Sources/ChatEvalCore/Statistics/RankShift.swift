import Foundation
import Synchronization

/// A rank test of "head is shifted from base", with the shift's estimate and confidence interval,
/// on samples split into strata (the turns of a suite: turn 1 and turn 5 measure different
/// things, so only values of the same turn are compared with each other).
///
/// The test is van Elteren's stratified Wilcoxon–Mann-Whitney test: each stratum contributes its
/// Mann-Whitney count U_s (pairs where head beats base) weighted by 1/(N_s + 1), the locally most
/// powerful weighting for a shift common to all strata. With one stratum it is the plain
/// Mann-Whitney U test, and then the p-value is exact for small tie-free samples.
///
/// The estimate and interval invert the same test (Hodges-Lehmann and Moses): U_s(δ) counts the
/// pairwise differences head − base above δ, so the shift at which the statistic meets its null
/// mean is the weighted median of all within-stratum pairwise differences, and the interval ends
/// are the weighted quantiles at which it meets the critical values. One stratum gives the
/// familiar median of pairwise differences.
///
/// Written here rather than taken from a library: no Swift package in reach offers stratified
/// rank tests or their inversion, and the whole method is the ~150 lines below.
public struct RankShift: Sendable, Hashable, Codable {
    /// Estimated shift head − base (in the units of the values given).
    public var estimate: Double
    /// Confidence interval of the shift; an end is infinite when the samples cannot bound it.
    public var lower: Double
    public var upper: Double
    /// Two-sided p-value of "no shift".
    public var pValue: Double
    /// The confidence level of `lower...upper`.
    public var confidence: Double
    /// Values compared on each side, over all strata.
    public var baseCount: Int
    public var headCount: Int

    /// Compares `strata` (pairs of base and head samples; a stratum lacking either side is left
    /// out). Returns nil when no stratum has values on both sides.
    public init?(strata: [(base: [Double], head: [Double])], confidence: Double = 0.95) {
        let usable = strata.map { (base: $0.base.filter(\.isFinite), head: $0.head.filter(\.isFinite)) }
            .filter { !$0.base.isEmpty && !$0.head.isEmpty }
        guard !usable.isEmpty else { return nil }
        self.confidence = confidence
        baseCount = usable.reduce(0) { $0 + $1.base.count }
        headCount = usable.reduce(0) { $0 + $1.head.count }

        // Weighted pairwise differences, and the statistic's null mean and variance.
        var values: [Double] = []
        var weights: [Double] = []
        var mean = 0.0, variance = 0.0, observed = 0.0
        for stratum in usable {
            let n = Double(stratum.base.count), m = Double(stratum.head.count), total = n + m
            let weight = 1 / (total + 1)
            for y in stratum.head {
                for x in stratum.base {
                    let difference = y - x
                    values.append(difference)
                    weights.append(weight)
                    observed += weight * (difference > 0 ? 1 : difference == 0 ? 0.5 : 0)
                }
            }
            mean += weight * n * m / 2
            variance += weight * weight * n * m / 12 * ((total + 1) - Self.tieTerm(stratum.base + stratum.head) / (total * (total - 1)))
        }
        if Set(weights).count == 1 {
            values.sort()   // equal weights (strata of one size, the usual case): a plain sort
        } else {
            let order = values.indices.sorted { values[$0] < values[$1] }
            values = order.map { values[$0] }
            weights = order.map { weights[$0] }
        }
        let differences = WeightedValues(sorted: values, weights: weights)
        let standardDeviation = variance.squareRoot()

        estimate = differences.quantile(at: mean)
        let z = Self.normalQuantile(1 - (1 - confidence) / 2)
        lower = standardDeviation > 0 ? differences.quantile(at: mean - z * standardDeviation, below: -.infinity) : estimate
        upper = standardDeviation > 0 ? differences.quantile(at: mean + z * standardDeviation, above: .infinity) : estimate

        if usable.count == 1, let exact = ExactMannWhitney(base: usable[0].base, head: usable[0].head) {
            pValue = exact.pValue
            (lower, upper) = exact.interval(sortedDifferences: values, confidence: confidence)
        } else if standardDeviation > 0 {
            let continuity = 0.5 * (weights.min() ?? 0)
            let distance = max(abs(observed - mean) - continuity, 0)
            pValue = min(1, 2 * Self.normalUpperTail(distance / standardDeviation))
        } else {
            // Every value of every stratum is equal: nothing suggests a shift.
            pValue = 1
        }
    }

    /// Σ (t³ − t) over groups of tied values (for the variance's tie correction).
    private static func tieTerm(_ values: [Double]) -> Double {
        var counts: [Double: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return counts.values.reduce(0.0) { total, count in
            let t = Double(count)
            return total + t * t * t - t
        }
    }

    // MARK: The normal distribution

    /// P(Z > z) for a standard normal Z.
    public static func normalUpperTail(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }

    /// The z with P(Z ≤ z) = p (Acklam's rational approximation refined by one Halley step;
    /// accurate to about 1e-15).
    public static func normalQuantile(_ p: Double) -> Double {
        precondition(p > 0 && p < 1, "normalQuantile needs 0 < p < 1")
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = (-2 * log(1 - p)).squareRoot()
            x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let error = 0.5 * erfc(-x / 2.0.squareRoot()) - p
        let u = error * (2 * Double.pi).squareRoot() * exp(x * x / 2)
        x -= u / (1 + x * u / 2)
        return x
    }
}

/// Values sorted ascending, each with a weight: the pairwise differences of `RankShift`.
struct WeightedValues {
    let sorted: [Double]
    let weights: [Double]

    /// The smallest value whose cumulative weight (from the bottom) exceeds `target` — the
    /// midpoint of two values when the target falls exactly between them, as the median of an
    /// even count is; `below`/`above` when the target lies outside the total weight.
    func quantile(at target: Double, below: Double? = nil, above: Double? = nil) -> Double {
        guard let first = sorted.first, let last = sorted.last else { return .nan }
        if target <= 0, let below { return below }
        let total = weights.reduce(0, +)
        if target >= total, let above { return above }
        var cumulative = 0.0
        for index in sorted.indices {
            cumulative += weights[index]
            if abs(cumulative - target) < 1e-12 * max(total, 1), index + 1 < sorted.count {
                return (sorted[index] + sorted[index + 1]) / 2
            }
            if cumulative > target { return sorted[index] }
        }
        return target <= 0 ? first : last
    }
}

/// The exact null distribution of the Mann-Whitney count U for one tie-free stratum: its
/// two-sided p-value and the exact Moses confidence interval of the shift.
struct ExactMannWhitney {
    /// Largest n·m for which the exact distribution is computed; beyond it the normal
    /// approximation is accurate.
    static let limit = 2_500

    let n: Int
    let m: Int
    let pValue: Double
    /// P(U ≤ k) for k = 0...n·m.
    private let cumulative: [Double]

    /// nil with ties (across both samples) or when n·m exceeds `limit`.
    init?(base: [Double], head: [Double]) {
        n = base.count
        m = head.count
        guard n * m <= Self.limit, Set(base + head).count == n + m else { return nil }
        var u = 0
        for y in head { for x in base where y > x { u += 1 } }
        let counts = Self.distribution(n: n, m: m)
        let total = counts.reduce(0, +)
        var running = 0.0
        cumulative = counts.map { running += $0; return running / total }
        pValue = min(1, 2 * cumulative[min(u, n * m - u)])
    }

    /// The interval [D(k), D(nm + 1 − k)] (1-based order statistics of the pairwise differences)
    /// with k the largest count such that P(U < k) ≤ (1 − confidence)/2; unbounded when even
    /// k = 1 is too likely.
    func interval(sortedDifferences: [Double], confidence: Double) -> (Double, Double) {
        let tail = (1 - confidence) / 2
        var k = 0
        while k < n * m, cumulative[k] <= tail { k += 1 }   // cumulative[k - 1] = P(U < k)
        guard k >= 1 else { return (-.infinity, .infinity) }
        return (sortedDifferences[k - 1], sortedDifferences[n * m - k])
    }

    private static let cache = Mutex<[Int: [Double]]>([:])

    /// Counts of each value of U for sizes n and m under the null hypothesis (Doubles hold them
    /// exactly at these sizes). f(i, j, u) = f(i − 1, j, u) + f(i, j − 1, u − i): the largest of
    /// i + j values is either a base value (it beats no head value) or a head value (it beats
    /// all i base values). Computed row by row, cached per size.
    static func distribution(n: Int, m: Int) -> [Double] {
        let key = n << 32 | m
        if let known = cache.withLock({ $0[key] }) { return known }
        var previousRow = (0...m).map { _ in [1.0] }          // i = 0: U is 0
        for i in 1...max(n, 1) where n > 0 {
            var row: [[Double]] = [[1.0]]                      // j = 0: U is 0
            for j in 1...max(m, 1) where m > 0 {
                var counts = [Double](repeating: 0, count: i * j + 1)
                for (u, count) in previousRow[j].enumerated() { counts[u] += count }
                for (u, count) in row[j - 1].enumerated() { counts[u + i] += count }
                row.append(counts)
            }
            previousRow = row
        }
        let result = previousRow[m]
        cache.withLock { $0[key] = result }
        return result
    }
}
