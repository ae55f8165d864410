import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalCompare

/// `Comparison.accept`: a `ChatEval-Expect` trailer accepts only the change its own commit made —
/// up to the sum of the bounds of the trailers that cover a change, or, without a bound, only
/// when its commit is the only one changing the suites' inputs. Before, any trailer naming the
/// suite, subject and direction accepted a change of any size, whoever made it.
@Suite struct ExpectationBoundsTests {
    /// One greedy repetition per side of a one-turn conversation: base evaluates 30 prompt
    /// tokens, head `30 + grown`.
    private func grown(by grown: Int) -> Comparison {
        var base = RecordBuilder(), head = RecordBuilder()
        base.replay(repetition: 1, ledger: [LedgerTurnSpec(prompt: 30, generated: 8, answer: "Rex.")])
        head.replay(repetition: 1, ledger: [LedgerTurnSpec(prompt: 30 + grown, generated: 8, answer: "Rex.")])
        var comparison = RunComparator.compare(
            base: ComparedRuns(runs: [base.record], sources: ["base.json"]),
            head: ComparedRuns(runs: [head.record], sources: ["head.json"]),
            settings: .default)
        comparison.ledger = LedgerComparator.compare(base: [base.record], head: [head.record])
        return comparison
    }

    private func tokens(_ commit: String, bound: Double?, others: [String] = ["fff0000"]) -> ChatEvalCore.Expectation {
        Expectation(
            commit: commit, suite: "*", subject: "evaluated-tokens", direction: .worse, bound: bound, otherCommitsChangingInputs: others)
    }

    @Test func aChangePastItsBoundStillFailsSayingByHowMuch() throws {
        var within = grown(by: 3)
        #expect(within.hasRegression)
        within.accept([tokens("abc1234", bound: 3)])
        #expect(!within.hasRegression && within.ledger?.changes.first?.accepted == ["evaluated tokens grew"])

        var past = grown(by: 60)
        past.accept([tokens("abc1234", bound: 3)])
        #expect(past.hasRegression && past.ledger?.changes.first?.regressions == ["evaluated tokens grew"])
        let expectation = try #require(past.expectations?.first)
        #expect(expectation.observed == true)
        #expect(
            expectation.exceeded == [
                "s/c turn 1: evaluated-tokens +60, 57 tokens beyond the bound +3 of the trailers that cover it (abc1234 +3)"
            ])
    }

    @Test func theBoundsOfEveryTrailerCoveringAChangeAddUp() throws {
        let both = [tokens("abc1234", bound: 3), tokens("def5678", bound: 57)]
        var sixty = grown(by: 60)
        sixty.accept(both)
        #expect(!sixty.hasRegression && sixty.acceptedCount == 1)
        var more = grown(by: 61)
        more.accept(both)
        #expect(more.hasRegression)
        #expect(
            more.expectations?.compactMap(\.exceeded).flatMap { $0 }.first
                == "s/c turn 1: evaluated-tokens +61, 1 token beyond the bound +60 of the trailers that cover it (abc1234 +3, def5678 +57)")
    }

    /// A trailer without a bound, on a head whose other commits change the inputs too: it
    /// cannot tell its change from theirs, so it accepts nothing and says what to write.
    @Test func anUnboundedTrailerBesideAnotherInputChangeIsNotApplied() throws {
        var comparison = grown(by: 3)
        comparison.accept([tokens("abc1234", bound: nil, others: ["def5678"])])
        #expect(comparison.hasRegression && comparison.acceptedCount == 0)
        let expectation = try #require(comparison.expectations?.first)
        #expect(
            expectation.notApplied
                == "1 other commit (def5678) changes the suites' inputs; give it a bound (`+3`) so only its own change is accepted")
        #expect(expectation.observed == true)
    }

    @Test func anUnboundedTrailerOnTheOnlyCommitChangingTheInputsIsApplied() {
        var comparison = grown(by: 60)
        comparison.accept([tokens("abc1234", bound: nil, others: [])])
        #expect(!comparison.hasRegression && comparison.acceptedCount == 1)
        #expect(comparison.expectations?.first?.exceeded == nil)
    }

    /// A metric's bound is a share of the change, held against the end of its interval nearer
    /// to no change: a change shown past the bound fails, one within it is accepted.
    @Test func aMetricsBoundIsAShareOfItsChange() throws {
        func slower() -> Comparison {
            var random = SeededRandom(seed: 11)
            var base = RecordBuilder(), head = RecordBuilder()
            for repetition in 1...10 {
                base.replay(repetition: repetition, ttft: (1...4).map { 0.1 * Double($0) * (1 + 0.03 * random.normal()) })
                head.replay(repetition: repetition, ttft: (1...4).map { 0.15 * Double($0) * (1 + 0.03 * random.normal()) })
            }
            return RunComparator.compare(
                base: ComparedRuns(runs: [base.record], sources: ["b"]), head: ComparedRuns(runs: [head.record], sources: ["h"]),
                settings: .default)
        }
        func ttft(_ comparison: Comparison) throws -> MetricChange {
            try #require(comparison.suites.first?.metrics.first { $0.metric == .timeToFirstToken })
        }
        let trailer = { (bound: Double) in
            Expectation(commit: "abc1234", suite: "s", subject: "ttft", direction: .worse, bound: bound, otherCommitsChangingInputs: ["d"])
        }
        var tight = slower()
        try #require(try ttft(tight).verdict == .regression && (try ttft(tight).changeLower ?? 0) > 0.3, "construction")
        tight.accept([trailer(0.15)])
        let reason = try ttft(tight).reason
        #expect(try ttft(tight).verdict == .regression)
        #expect(reason.hasPrefix("worse, past the bound +15% of abc1234 +15%: ttft +"), "\(reason)")
        let exceeded = try #require(tight.expectations?.first?.exceeded?.first)
        #expect(exceeded.hasPrefix("s: ttft +") && exceeded.contains("points beyond the bound +15%"), "\(exceeded)")

        var loose = slower()
        loose.accept([trailer(0.8)])
        #expect(try ttft(loose).verdict == .accepted)
        #expect(try ttft(loose).reason.contains("as abc1234 expects (ChatEval-Expect: s ttft worse +80%), within the bound +80%"))
    }

    /// `checks:TYPE` accepts a failing check of that type only; `checks:*` any check of the suite.
    @Test(arguments: [("regex", false), ("icontains", true), ("*", true)])
    func aCheckTrailerAcceptsTheChecksItNames(_ check: String, _ accepted: Bool) {
        var base = RecordBuilder(), head = RecordBuilder()
        for repetition in 1...10 {
            base.replay(repetition: repetition, ttft: [0.1, 0.2], checks: [[true], [true]])
            head.replay(repetition: repetition, ttft: [0.1, 0.2], checks: [[true], [false]])
        }
        var comparison = RunComparator.compare(
            base: ComparedRuns(runs: [base.record], sources: ["b"]), head: ComparedRuns(runs: [head.record], sources: ["h"]),
            settings: .default)
        #expect(comparison.quality.regressions.map(\.check) == ["icontains"])
        comparison.accept([
            Expectation(commit: "abc1234", suite: "s", subject: "checks", direction: .worse, check: check, otherCommitsChangingInputs: [])
        ])
        #expect(comparison.quality.regressions.isEmpty == accepted)
        #expect(comparison.expectations?.first?.observed == accepted)
    }
}
