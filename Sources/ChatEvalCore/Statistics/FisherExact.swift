import Foundation

/// Fisher's exact test of two pass counts: did a check pass as often on head as on base?
///
/// The 2×2 table (base passed, base failed; head passed, head failed) is tested conditionally on
/// its margins: under "no change", the number of head passes among all passes is hypergeometric.
/// The two-sided p-value sums the probabilities of every table no more likely than the observed
/// one (the usual definition, SciPy's `fisher_exact` and R's `fisher.test`). With the margins
/// fixed, the smallest p-value the test could reach is known before looking at which side passed
/// (`minimumPValue`), which is what lets `MultipleTesting` leave untestable checks (1 of 1 against
/// 0 of 1; every replay passing on both sides) out of a family instead of diluting it.
public struct FisherExact: Sendable, Hashable, Codable {
    public var basePassed: Int
    public var baseTotal: Int
    public var headPassed: Int
    public var headTotal: Int
    /// Two-sided p-value of "the pass rate did not change".
    public var pValue: Double
    /// The smallest two-sided p-value any table with these margins gives.
    public var minimumPValue: Double

    /// nil when a side has no replays or a count is out of range.
    public init?(basePassed: Int, baseTotal: Int, headPassed: Int, headTotal: Int) {
        guard baseTotal > 0, headTotal > 0, (0...baseTotal).contains(basePassed), (0...headTotal).contains(headPassed) else { return nil }
        self.basePassed = basePassed
        self.baseTotal = baseTotal
        self.headPassed = headPassed
        self.headTotal = headTotal
        let passes = basePassed + headPassed
        // Head passes x range over the tables with these margins.
        let low = max(0, passes - baseTotal), high = min(passes, headTotal)
        let logs = (low...high).map { Self.logHypergeometric(x: $0, passes: passes, headTotal: headTotal, baseTotal: baseTotal) }
        let largest = logs.max() ?? 0
        let probabilities = logs.map { exp($0 - largest) }
        let total = probabilities.reduce(0, +)
        func tail(of index: Int) -> Double {
            let observed = probabilities[index]
            // Tables no more likely than the observed one (a relative tolerance for rounding, as R's).
            return min(1, probabilities.filter { $0 <= observed * (1 + 1e-7) }.reduce(0, +) / total)
        }
        pValue = tail(of: headPassed - low)
        minimumPValue = probabilities.indices.map(tail(of:)).min() ?? 1
    }

    /// Head's pass rate minus base's.
    public var difference: Double { Double(headPassed) / Double(headTotal) - Double(basePassed) / Double(baseTotal) }

    /// log P(head passes = x) for the hypergeometric with these margins.
    private static func logHypergeometric(x: Int, passes: Int, headTotal: Int, baseTotal: Int) -> Double {
        logChoose(headTotal, x) + logChoose(baseTotal, passes - x) - logChoose(headTotal + baseTotal, passes)
    }

    static func logChoose(_ n: Int, _ k: Int) -> Double {
        lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
    }
}
