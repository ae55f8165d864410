import ChatEvalCore
import Foundation
import Testing

/// The exact binomial interval of a measured rate, at the edges and in the middle, against the
/// closed forms of 0 of n and n of n and against SciPy
/// (`scipy.stats.beta.ppf(0.025, k, n - k + 1)`, `beta.ppf(0.975, k + 1, n - k)`).
@Suite struct ClopperPearsonTests {
    private func interval(_ successes: Int, _ trials: Int) throws -> ClopperPearson {
        try #require(ClopperPearson(successes: successes, trials: trials))
    }

    /// 0 of 10 false alarms does not show a rate under 1%: its upper bound is 1 − 0.025^(1/10).
    @Test func noneOfNHasTheClosedFormUpperBound() throws {
        let ten = try interval(0, 10)
        #expect(ten.lower == 0 && ten.rate == 0)
        #expect(abs(ten.upper - 0.3084971078187607) < 1e-12)
        #expect(abs(ten.upper - (1 - pow(0.025, 1.0 / 10))) < 1e-15)
        #expect(abs(try interval(0, 299).upper - 0.012261595907535044) < 1e-12)
        #expect(abs(try interval(0, 1).upper - 0.975) < 1e-12)
    }

    @Test func allOfNHasTheClosedFormLowerBound() throws {
        let ten = try interval(10, 10)
        #expect(ten.upper == 1 && ten.rate == 1)
        #expect(abs(ten.lower - 0.6915028921812392) < 1e-12)
        let one = try interval(1, 1)
        #expect(one.upper == 1 && abs(one.lower - 0.025) < 1e-12)
    }

    @Test func theMiddleMatchesSciPy() throws {
        let cases: [(Int, Int, Double, Double)] = [
            (3, 10, 0.0667395111777345, 0.6524528500599973),
            (1, 100, 0.00025314603297742086, 0.054459385392080645),
            (5, 100, 0.016431879182052158, 0.11283491110546275),
            (2, 20, 0.012348527170294813, 0.31698271401908235),
            (1, 110, 0.0002301354055502927, 0.04961118931198478),
            (50, 1000, 0.03733539760466178, 0.06539048791549364),
        ]
        for (k, n, lower, upper) in cases {
            let found = try interval(k, n)
            #expect(abs(found.lower - lower) < 1e-9 * max(1, lower / 1e-3), "\(k)/\(n) lower \(found.lower)")
            #expect(abs(found.upper - upper) < 1e-9, "\(k)/\(n) upper \(found.upper)")
            #expect(found.lower < found.rate && found.rate < found.upper)
        }
    }

    /// No trials measure nothing; a count outside 0...n or a level outside (0, 1) is refused.
    @Test func nothingMeasuredHasNoInterval() {
        #expect(ClopperPearson(successes: 0, trials: 0) == nil)
        #expect(ClopperPearson(successes: 3, trials: 2) == nil)
        #expect(ClopperPearson(successes: -1, trials: 2) == nil)
        #expect(ClopperPearson(successes: 1, trials: 2, confidence: 1) == nil)
        #expect(ClopperPearson(successes: 1, trials: 2, confidence: 0) == nil)
    }

    @Test func theTextGivesTheRateAndItsInterval() throws {
        #expect(try interval(0, 10).percentText() == "0.0% [0.0%, 30.8%]")
        #expect(try interval(1, 110).percentText(decimals: 2) == "0.91% [0.02%, 4.96%]")
    }
}
