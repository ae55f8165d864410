import Foundation

/// The Clopper–Pearson interval of a rate measured as `successes` of `trials` (false alarms of
/// A/A comparisons, detections of real changes): the exact binomial interval, two-sided, each
/// tail holding at most (1 − confidence) / 2. Its bounds are the rates p at which the observed
/// count is just in a tail: P(X ≥ k | p) = tail for the lower bound, P(X ≤ k | p) = tail for the
/// upper one (equivalently the beta quantiles B(tail; k, n − k + 1) and B(1 − tail; k + 1, n − k),
/// SciPy's `binomtest(...).proportion_ci(method="exact")`). 0 of n has lower bound 0 and upper
/// bound 1 − tail^(1/n); n of n has upper bound 1 and lower bound tail^(1/n).
public struct ClopperPearson: Sendable, Hashable {
    public var successes: Int
    public var trials: Int
    public var confidence: Double
    public var lower: Double
    public var upper: Double

    /// nil when there are no trials, `successes` is outside 0...trials, or `confidence` is not
    /// strictly between 0 and 1: no rate was measured, so there is no interval to give.
    public init?(successes: Int, trials: Int, confidence: Double = 0.95) {
        guard trials > 0, (0...trials).contains(successes), confidence > 0, confidence < 1 else { return nil }
        self.successes = successes
        self.trials = trials
        self.confidence = confidence
        let tail = (1 - confidence) / 2, n = Double(trials)
        lower =
            successes == 0
            ? 0
            : successes == trials
                ? pow(tail, 1 / n)
                : Self.solve { Self.atMost(successes - 1, of: trials, rate: $0) >= 1 - tail }
        upper =
            successes == trials
            ? 1
            : successes == 0
                ? 1 - pow(tail, 1 / n)
                : Self.solve { Self.atMost(successes, of: trials, rate: $0) > tail }
    }

    /// The measured rate, successes ÷ trials.
    public var rate: Double { Double(successes) / Double(trials) }

    /// "2.0% [0.2%, 7.0%]": the rate and its interval in percent, to `decimals` places.
    public func percentText(decimals: Int = 1) -> String {
        let format = "%.\(decimals)f%%"
        return String(format: format, rate * 100) + " [" + String(format: format, lower * 100) + ", "
            + String(format: format, upper * 100) + "]"
    }

    /// The boundary in (0, 1) where `below` turns from true to false (`below` holds for small
    /// rates and fails for large ones), by bisection to double precision.
    private static func solve(_ below: (Double) -> Bool) -> Double {
        var low = 0.0, high = 1.0
        for _ in 0..<200 {
            let middle = (low + high) / 2
            guard middle > low && middle < high else { break }
            if below(middle) { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// P(X ≤ k) for X binomial with `trials` and `rate` (0 < rate < 1), summed in log space.
    static func atMost(_ k: Int, of trials: Int, rate: Double) -> Double {
        guard k >= 0 else { return 0 }
        guard k < trials else { return 1 }
        let logRate = log(rate), logMiss = log1p(-rate)
        var total = 0.0
        for i in 0...k {
            let term = FisherExact.logChoose(trials, i) + Double(i) * logRate + Double(trials - i) * logMiss
            total += exp(term)
        }
        return min(1, total)
    }
}
