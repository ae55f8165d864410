import ChatEvalCore
import ChatEvalStore
import Foundation

/// The gated family of a comparison — suite metrics with a threshold, checks' pass counts and
/// turns' answered counts — decided jointly by relabelling replays within each conversation
/// (`JointPermutation`): the metrics and checks of one replay move together, and the family's
/// adjustment pays for that dependence only. Regressions are tested one-sided ("is head worse?")
/// at the family's rate; improvements, which never fail a build, one-sided at the same rate in
/// their own family.
package enum JointFamily {
    struct Decisions {
        var metrics: [MultipleTesting.Decision?]
        var checks: [MultipleTesting.Decision?]
        var turns: [MultipleTesting.Decision?]
        var family: TestFamily
    }

    /// Relabellings drawn when there are too many to enumerate: an adjusted p-value of 0.8% (the
    /// 25% slowdown of five replays a side) is then estimated within ±0.2% (two standard errors).
    package static let samples = 10_000
    /// Relabellings enumerated exactly up to this count (two suites of one conversation with five
    /// replays a side: 252² = 63,504).
    static let exactLimit = 100_000

    static func decide(
        metrics: [RunComparator.PendingChange], tested: [RunComparator.TestedChange], gated: [Bool],
        counts: QualityComparator.Counts, outcomes: [String: ReplayOutcomes], alpha: Double, samples: Int = JointFamily.samples
    ) -> Decisions {
        // Strata: one per (suite, conversation), its units the suite's base replays then head's.
        let units = outcomes.mapValues { $0.base + $0.head }
        var strata: [JointPermutation.Stratum] = []
        var stratumIndex: [String: [String: (index: Int, units: [Int])]] = [:]
        for suite in outcomes.keys.sorted() {
            let baseCount = outcomes[suite]!.base.count
            var byConversation: [String: [Int]] = [:]
            for (unit, outcome) in units[suite]!.enumerated() { byConversation[outcome.conversation, default: []].append(unit) }
            for conversation in byConversation.keys.sorted() {
                let members = byConversation[conversation]!
                stratumIndex[suite, default: [:]][conversation] = (strata.count, members)
                strata.append(JointPermutation.Stratum(isHead: members.map { $0 >= baseCount }))
            }
        }
        var tests: [JointPermutation.Test] = []
        var marginal: [JointPermutation.Sides?] = []
        var hash = Hasher64()

        var metricSlots: [Int?] = []
        for ((pending, test), isGated) in zip(zip(metrics, tested), gated) {
            guard isGated, let shift = test.shift, let conversations = stratumIndex[pending.suite] else {
                metricSlots.append(nil)
                continue
            }
            let summaries = test.summaries
            guard summaries.count == (outcomes[pending.suite]?.base.count ?? 0) + (outcomes[pending.suite]?.head.count ?? 0) else {
                metricSlots.append(nil)
                continue
            }
            let parts = conversations.keys.sorted().map { conversation in
                let stratum = conversations[conversation]!
                return JointPermutation.Part(stratum: stratum.index, values: stratum.units.map { summaries[$0] })
            }
            for value in summaries { hash.add(value ?? 0) }
            metricSlots.append(tests.count)
            tests.append(.rank(parts: parts, worse: pending.metric.polarity == .smallerIsBetter ? .larger : .smaller))
            // The rank test's own p-value, exact where it can be enumerated, halved towards its estimate.
            let headWorse = pending.metric.polarity == .smallerIsBetter ? shift.estimate > 0 : shift.estimate < 0
            let near = shift.pValue / 2, far = 1 - shift.pValue / 2
            marginal.append(JointPermutation.Sides(worse: headWorse ? near : far, better: headWorse ? far : near))
        }
        func countSlot(suite: String, conversation: String, outcome: (ReplayOutcome) -> Bool?) -> Int? {
            guard let stratum = stratumIndex[suite]?[conversation], let all = units[suite] else { return nil }
            let passed = stratum.units.map { outcome(all[$0]) }
            for value in passed { hash.add(value == nil ? 2 : value! ? 1 : 0) }
            tests.append(.count(stratum: stratum.index, passed: passed))
            marginal.append(nil)
            return tests.count - 1
        }
        let checkSlots = counts.checks.map { entry -> Int? in
            guard entry.fisher != nil else { return nil }
            return countSlot(suite: entry.key.suite, conversation: entry.key.conversation) { $0.checks[entry.key] }
        }
        let turnSlots = counts.turns.map { entry -> Int? in
            guard entry.fisher != nil else { return nil }
            return countSlot(suite: entry.key.suite, conversation: entry.key.conversation) { $0.answered[entry.key.turn] }
        }
        let result = JointPermutation.adjust(
            strata: strata, tests: tests, marginal: marginal, exactLimit: exactLimit, samples: samples, seed: hash.value)
        let decisions = tests.indices.map { index -> MultipleTesting.Decision in
            let observed = result.observed[index], adjusted = result.adjusted[index]
            let value = observed.worse <= observed.better ? adjusted.worse : adjusted.better
            return MultipleTesting.Decision(adjustedPValue: value, significant: value <= alpha)
        }
        return Decisions(
            metrics: metricSlots.map { $0.map { decisions[$0] } }, checks: checkSlots.map { $0.map { decisions[$0] } },
            turns: turnSlots.map { $0.map { decisions[$0] } },
            family: TestFamily(tests: tests.count, testable: tests.count, labelings: result.labelings, exact: result.exact))
    }

    /// FNV-1a over the tested values: the seed of the sampled relabellings, so that the same
    /// files decide the same way every time.
    struct Hasher64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ number: Double) {
            var bits = number.bitPattern
            for _ in 0..<8 {
                value = (value ^ (bits & 0xff)) &* 0x100_0000_01b3
                bits >>= 8
            }
        }
    }
}
