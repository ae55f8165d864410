/// How many repetitions per side would likely decide a comparison that is undecided now.
///
/// The shift estimate of a rank test over S strata of R replays per side has a standard error of
/// about σ·√(π/3)·√(2/(R·S)) (σ: the spread of one replay's value; √(π/3): the Hodges-Lehmann
/// estimator's efficiency against a mean, for normal noise). With z_β for the wanted power:
/// - an estimate inside the threshold b decides as "unchanged" once the interval fits within
///   ±b around it: (z_{1−γ} + z_β)·se ≤ b − |estimate|, with γ the interval's one-sided level;
/// - an estimate beyond it decides as a change once the test reaches the family's level,
///   (z_{1−α/2} + z_β)·se ≤ |estimate| (α: the family's rate, shared as Bonferroni would), and
///   the estimate stays past the threshold, z_β·se ≤ |estimate| − b.
/// Solved for R. The estimate is itself uncertain, so the count is a forecast: `GateCalibration`
/// measures how often the suggested count decides.
public enum RepetitionForecast {
    /// The power the forecast aims at.
    public static let power = 0.9

    /// nil when the spread is 0 (nothing to forecast); capped at `limit` (an estimate at the
    /// threshold: no count decides it).
    public static func repetitions(
        spread: Double, strata: Int, estimate: Double, bound: Double, familyLevel: Double, intervalTail: Double, limit: Int = 10_000
    ) -> Int? {
        guard spread > 0, strata > 0, bound > 0, spread.isFinite, estimate.isFinite else { return nil }
        let zBeta = RankShift.normalQuantile(power)
        // Repetitions at which (z · se) fits within `distance`: se(R) = spread·√(π/3)·√(2/(R·S)).
        func needed(_ z: Double, _ distance: Double) -> Int {
            guard distance > 0 else { return limit }
            let ratio = z * spread / distance
            let perSide = 2 * Double.pi / 3 * ratio * ratio / Double(strata)
            return perSide.isFinite ? min(limit, max(2, Int(perSide.rounded(.up)))) : limit
        }
        if abs(estimate) < bound {
            // Unchanged: the interval within ±bound around the estimate.
            return needed(RankShift.normalQuantile(1 - intervalTail) + zBeta, bound - abs(estimate))
        }
        // A change: significant at the family's level, and the estimate staying past the bound.
        return max(needed(RankShift.normalQuantile(1 - familyLevel / 2) + zBeta, abs(estimate)), needed(zBeta, abs(estimate) - bound))
    }
}
