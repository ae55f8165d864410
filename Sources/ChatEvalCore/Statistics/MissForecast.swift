import Foundation

/// How often a comparison like this one would miss a real change of a given size: the chance
/// that a head `change` worse (log scale: 0.0953 for 10% slower) would not have been called a
/// regression at these repetitions, this spread and this family level. What a comparison that
/// ended "not decided" says it could not rule out ("a 10% TTFT slowdown is missed about 63% of
/// the time at this budget").
///
/// A regression needs the test at the family's level and an estimate past the threshold `bound`.
/// The shift estimate of S strata of R replays a side has a standard error of about
/// σ·√(π/3)·√(2/(R·S)) (`RepetitionForecast`); at a few replays the rank test's boundary is
/// wider than the normal quantile says, so the boundary uses Student's t with S·(2R − 2) degrees
/// of freedom (the spread's own), which the seeded calibration (`MissForecastTests`, against
/// `GateCalibration`'s simulated comparisons) holds within 12 points at 3 to 30 repetitions. A
/// regression is then called when the estimate passes max(t·se, bound), so the miss rate is
/// Φ((max(t·se, bound) − change) / se). Where no arrangement of the replays could reach the
/// level (one replay a side of eight one-turn questions: 1/256 at best) it is 1, whatever the spread.
public enum MissForecast {
    /// The chance of missing `change`; nil when the spread is unknown (0: one replay a side in
    /// every stratum) and the level is reachable, or the inputs are not usable.
    /// `runError`: for separately recorded runs, the run-to-run standard error, added to the
    /// shift's in quadrature.
    public static func missRate(
        spread: Double, strata: Int, repetitions: Int, bound: Double, change: Double, familyLevel: Double, runError: Double = 0
    ) -> Double? {
        guard strata > 0, repetitions > 0, familyLevel > 0, familyLevel < 1, change > 0, bound >= 0, spread.isFinite else {
            return nil
        }
        // The smallest one-sided p-value an exact stratified rank test can reach: in each stratum
        // one arrangement of C(2R, R).
        let arrangements = (0..<repetitions).reduce(0.0) { $0 + log(Double(2 * repetitions - $1) / Double(repetitions - $1)) }
        if -arrangements * Double(strata) > log(familyLevel) { return 1 }
        guard spread > 0 else { return nil }
        let within = spread * (Double.pi / 3).squareRoot() * (2 / Double(repetitions * strata)).squareRoot()
        let se = (within * within + runError * runError).squareRoot()
        let degrees = strata * (2 * repetitions - 2)
        let quantile = degrees > 0 ? studentQuantile(1 - familyLevel, degrees: degrees) : RankShift.normalQuantile(1 - familyLevel)
        let boundary = max(quantile * se, bound)
        return 1 - normalCDF((change - boundary) / se)
    }

    /// Φ(x).
    public static func normalCDF(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

    /// Student's t quantile at probability `p` (> 0.5) with `degrees` degrees of freedom, by the
    /// Cornish–Fisher expansion around the normal quantile (Abramowitz & Stegun 26.7.5): within
    /// 1% of the exact quantile from 3 degrees of freedom at the levels a family uses.
    public static func studentQuantile(_ p: Double, degrees: Int) -> Double {
        let z = RankShift.normalQuantile(p)
        let n = Double(max(degrees, 1))
        let z2 = z * z
        let g1 = (z2 + 1) * z / 4
        let g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
        let g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
        let g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
        return z + g1 / n + g2 / (n * n) + g3 / (n * n * n) + g4 / (n * n * n * n)
    }
}
