import ChatEvalCore
import Foundation
import Testing

/// The rank test, its interval and Holm's adjustment, against values computed by hand or by
/// SciPy (`scipy.stats.mannwhitneyu`, method "exact" and "asymptotic").
@Suite struct StatisticsTests {
    @Test func exactMannWhitneyMatchesSciPy() throws {
        // scipy.stats.mannwhitneyu([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], method="exact").pvalue
        let separated = try #require(RankShift(strata: [([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])]))
        #expect(abs(separated.pValue - 0.007936507936507936) < 1e-12)
        // ... ([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]) → 0.6904761904761905
        let interleaved = try #require(RankShift(strata: [([1, 3, 5, 7, 9], [2, 4, 6, 8, 10])]))
        #expect(abs(interleaved.pValue - 0.6904761904761905) < 1e-12)
    }

    @Test func theEstimateIsTheMedianOfPairwiseDifferences() throws {
        let shift = try #require(RankShift(strata: [([10, 11, 12], [15, 17])]))
        // differences: 5 4 3 7 6 5 → median 5
        #expect(shift.estimate == 5)
        #expect(shift.baseCount == 3 && shift.headCount == 2)
    }

    @Test func twoSamplesEachCannotDecide() throws {
        let shift = try #require(RankShift(strata: [([1.0, 1.1], [2.0, 2.1])]))
        #expect(shift.pValue > 0.3)  // the most extreme split has p = 1/3
        #expect(abs(shift.minimumPValue - 1.0 / 3) < 1e-12)
        #expect(shift.lower == -.infinity && shift.upper == .infinity)
    }

    // MARK: The edges: one value per side, ties, strata of one pair

    @Test func oneValuePerSideIsNeverEvidence() throws {
        // The A/A at one repetition: head's one replay 70% slower. One pair can fall
        // either way with probability ½: nothing is decided, and the interval is unbounded.
        let shift = try #require(RankShift(strata: [([0.10], [0.17])]))
        #expect(shift.pValue == 1 && shift.minimumPValue == 1)
        #expect(shift.lower == -.infinity && shift.upper == .infinity)
        // Identical single values: still nothing (not an exact zero difference).
        let tied = try #require(RankShift(strata: [([0.5], [0.5])]))
        #expect(tied.minimumPValue == 1)
        #expect(tied.lower == -.infinity && tied.upper == .infinity)
    }

    @Test func onePairPerStratumIsASignTestExactly() throws {
        // Eight strata of one value per side, every head value above: binomtest(8, 8) = 2/256.
        let strata = (0..<8).map { turn in (base: [Double(turn)], head: [Double(turn) + 0.5]) }
        let all = try #require(RankShift(strata: strata))
        #expect(all.exact)
        #expect(abs(all.pValue - 0.0078125) < 1e-12)
        #expect(abs(all.minimumPValue - 0.0078125) < 1e-12)
        // Seven of eight: binomtest(7, 8) = 0.0703125.
        var seven = strata
        seven[0].head = [-1]
        #expect(abs(try #require(RankShift(strata: seven)).pValue - 0.0703125) < 1e-12)
    }

    @Test func tiesGetTheirExactPermutationDistribution() throws {
        // Enumerated over all 252 splits with midranks (scipy.stats.rankdata): P(|R − E| ≥ |r − E|).
        let shift = try #require(RankShift(strata: [([1, 1, 2, 2, 3], [2, 3, 3, 4, 4])]))
        #expect(shift.exact)
        #expect(abs(shift.pValue - 20.0 / 252) < 1e-12)
        #expect(abs(shift.minimumPValue - 2.0 / 252) < 1e-12)
        // Every value tied on both sides of every stratum: no arrangement differs from another.
        let flat = try #require(RankShift(strata: [([0.9, 0.9, 0.9], [0.9, 0.9, 0.9])]))
        #expect(flat.pValue == 1 && flat.minimumPValue == 1)
    }

    @Test func aConstantDifferenceIsEvidenceOnlyWithReplays() throws {
        // Reuse of greedy replays: 0.9 on every base replay, 0.6 on every head replay. Three of each
        // can fall that way by chance once in 10 (2/20); ten of each cannot.
        let three = try #require(RankShift(strata: [([0.9, 0.9, 0.9], [0.6, 0.6, 0.6])]))
        #expect(abs(three.pValue - 0.1) < 1e-12)
        let ten = try #require(RankShift(strata: [(Array(repeating: 0.9, count: 10), Array(repeating: 0.6, count: 10))]))
        #expect(abs(ten.pValue - 2.0 / 184_756) < 1e-15)
        #expect(abs(ten.estimate + 0.3) < 1e-12)
    }

    @Test func theIntervalExcludesZeroExactlyWhenTheTestRejectsAtItsLevel() throws {
        var random = SeededRandom(seed: 11)
        for trial in 0..<200 {
            let size = 3 + trial % 6, shift = Double(trial % 5) * 0.4
            let strata = (0..<(1 + trial % 3)).map { _ in
                (base: (0..<size).map { _ in random.normal() }, head: (0..<size).map { _ in random.normal() + shift })
            }
            let tested = try #require(RankShift(strata: strata, confidence: 0.95))
            guard tested.exact else { continue }
            let excludes = tested.lower > 0 || tested.upper < 0
            // Moses' interval and the exact test agree (continuous values: no ties at 0).
            #expect(excludes == (tested.pValue <= 0.05 + 1e-12), "trial \(trial): p \(tested.pValue), [\(tested.lower), \(tested.upper)]")
        }
    }

    @Test func theIntervalHoldsTheTrueShiftAndNarrowsWithMoreSamples() throws {
        var random = SeededRandom(seed: 7)
        func sample(_ count: Int, shift: Double) -> [Double] { (0..<count).map { _ in random.normal() + shift } }
        let small = try #require(RankShift(strata: [(sample(8, shift: 0), sample(8, shift: 1))]))
        let large = try #require(RankShift(strata: [(sample(200, shift: 0), sample(200, shift: 1))]))
        #expect(small.lower < 1 && 1 < small.upper)
        #expect(large.lower < 1 && 1 < large.upper)
        #expect(large.upper - large.lower < (small.upper - small.lower) / 2)
        #expect(large.pValue < 1e-6)
    }

    @Test func strataAreComparedOnlyWithinThemselves() throws {
        // Turn 2 is ten times slower than turn 1 on both sides; head is 1 slower in each turn.
        var random = SeededRandom(seed: 3)
        let strata: [(base: [Double], head: [Double])] = [0.0, 10.0].map { level in
            ((0..<10).map { _ in level + random.normal() * 0.3 }, (0..<10).map { _ in level + 1 + random.normal() * 0.3 })
        }
        let shift = try #require(RankShift(strata: strata))
        #expect(abs(shift.estimate - 1) < 0.3)
        #expect(shift.pValue < 1e-4)
        // Pooled without strata, the turn-to-turn spread would swamp the shift.
        let pooled = try #require(RankShift(strata: [(strata.flatMap(\.base), strata.flatMap(\.head))]))
        #expect(pooled.pValue > shift.pValue * 100)
    }

    /// Strata of 7, 4 and 9 values: van Elteren's weights differ (5, 8, 4), so the pairs of each
    /// stratum count differently in the statistic, the estimate and the interval. Expected values
    /// from scripts/stratified-rank-reference.py (brute-force enumeration of every split of every
    /// stratum, exact fractions; each tie-free stratum checked against scipy 1.17.1's mannwhitneyu).
    @Test func strataOfUnequalSizesMatchAnIndependentReference() throws {
        let untied = try #require(
            RankShift(strata: [
                ([0.11, 0.14, 0.12], [0.16, 0.13, 0.19, 0.15]), ([1.02, 0.98], [1.10, 1.05]),
                ([2.3, 2.1, 2.6, 2.2, 2.4], [2.5, 2.7, 2.35, 2.45]),
            ]))
        #expect(untied.exact)
        #expect(abs(untied.pValue - 67.0 / 13230) < 1e-12)  // 0.005064247921390779
        #expect(abs(untied.minimumPValue - 1.0 / 13230) < 1e-15)
        #expect(untied.estimate == 0.07)
        #expect(untied.lower == 0.020000000000000004 && untied.upper == 0.20000000000000018)
        #expect(untied.baseCount == 10 && untied.headCount == 10 && untied.strata == 3)

        // The same sizes with ties within and across the sides: the tied permutation distribution.
        let tied = try #require(
            RankShift(strata: [([3, 4, 4], [4, 5, 6, 5]), ([7, 8], [8, 9]), ([1, 2, 2, 3, 1], [2, 3, 3, 4])]))
        #expect(tied.exact)
        #expect(abs(tied.pValue - 23.0 / 4410) < 1e-12)  // 0.005215419501133787
        #expect(abs(tied.minimumPValue - 1.0 / 4410) < 1e-15)
        #expect(tied.estimate == 1 && tied.lower == 1 && tied.upper == 2)
    }

    @Test func identicalSamplesShowNoShift() throws {
        let shift = try #require(RankShift(strata: [([0.5, 0.5, 0.5], [0.5, 0.5, 0.5]), ([0.8, 0.8], [0.8, 0.8])]))
        #expect(shift.pValue == 1)
        #expect(shift.estimate == 0 && shift.lower == 0 && shift.upper == 0)
    }

    @Test func aStratumMissingASideIsLeftOut() {
        #expect(RankShift(strata: [([1, 2], [])]) == nil)
        #expect(RankShift(strata: [([1, 2], [3]), ([], [4])])?.headCount == 1)
    }

    // MARK: Fisher's exact test

    @Test func fisherMatchesSciPy() throws {
        // scipy.stats.fisher_exact([[base passed, base failed], [head passed, head failed]]).pvalue
        let cases: [(Int, Int, Int, Int, Double)] = [
            (9, 10, 0, 10, 0.00011907597046915932), (10, 10, 0, 10, 1.082508822446903e-05), (1, 1, 0, 1, 1.0),
            (3, 3, 0, 3, 0.10000000000000002), (5, 10, 5, 10, 1.0), (7, 10, 2, 10, 0.06977851869492736),
        ]
        for (bp, bt, hp, ht, expected) in cases {
            let test = try #require(FisherExact(basePassed: bp, baseTotal: bt, headPassed: hp, headTotal: ht))
            #expect(abs(test.pValue - expected) < 1e-12 * max(1, expected * 1e6), "\(bp)/\(bt) vs \(hp)/\(ht): \(test.pValue)")
        }
        #expect(FisherExact(basePassed: 1, baseTotal: 0, headPassed: 0, headTotal: 1) == nil)
    }

    @Test func fisherKnowsItsSmallestPValueFromTheMargins() throws {
        // One replay per side: no table with these margins is unlikely — the test cannot reach any level.
        #expect(try #require(FisherExact(basePassed: 1, baseTotal: 1, headPassed: 0, headTotal: 1)).minimumPValue == 1)
        // Every replay passing on both sides: one table only.
        #expect(try #require(FisherExact(basePassed: 10, baseTotal: 10, headPassed: 10, headTotal: 10)).minimumPValue == 1)
        // 9 passes of 20 split 9/0 is the most extreme.
        let dropped = try #require(FisherExact(basePassed: 9, baseTotal: 10, headPassed: 0, headTotal: 10))
        #expect(abs(dropped.minimumPValue - dropped.pValue) < 1e-15)
    }

    // MARK: One family

    @Test func taroneLeavesOutTestsThatCannotReachTheLevel() {
        // Three tests that can reach 0.01/3 and forty that cannot reach 0.01 at all (one replay per side).
        let tests = [(0.0001, 1e-6), (0.002, 1e-6), (0.5, 1e-6)] + Array(repeating: (1.0, 1.0), count: 40)
        let decisions = MultipleTesting.decide(tests.map { (pValue: $0.0, minimumPValue: $0.1) }, alpha: 0.01)
        #expect(decisions.prefix(3).allSatisfy { $0.adjustedPValue != nil })
        #expect(decisions.dropFirst(3).allSatisfy { $0.adjustedPValue == nil && !$0.significant })
        // Holm over the three: 0.0003, 0.004, 0.5.
        #expect(abs((decisions[0].adjustedPValue ?? 1) - 0.0003) < 1e-12 && decisions[0].significant)
        #expect(abs((decisions[1].adjustedPValue ?? 1) - 0.004) < 1e-12 && decisions[1].significant)
        #expect(!decisions[2].significant)
        // Counted in the family, the 40 would have made the second test pay 42×: 0.084, not significant.
        #expect(Holm.adjust(tests.map(\.0))[1] > 0.01)
    }

    @Test func taroneKeepsEveryTestWhenAllCanReachTheLevel() {
        #expect(MultipleTesting.testableSet([1e-9, 1e-9, 1e-9], alpha: 0.01) == [0, 1, 2])
        // Two tests each reaching 0.008 but not 0.005: K = 2 fails (both > 0.005), K = 1 fails, K = 3 keeps none.
        #expect(MultipleTesting.testableSet([0.008, 0.008], alpha: 0.01).isEmpty)
        #expect(MultipleTesting.testableSet([], alpha: 0.01).isEmpty)
    }

    /// Tarone's set found in one pass down the sorted p-values equals the rule applied literally
    /// (the prefix counted again for every K), on seeded families with ties and values at the
    /// level: sizes 1–300, minimum p-values from 1e-9 to 1.
    @Test func taroneInOnePassEqualsTheRuleAppliedLiterally() {
        func literal(_ minimumPValues: [Double], alpha: Double) -> [Int] {
            guard !minimumPValues.isEmpty, alpha > 0 else { return [] }
            for k in 1...minimumPValues.count {
                let level = alpha / Double(k)
                if minimumPValues.filter({ $0 <= level }).count <= k {
                    return minimumPValues.indices.filter { minimumPValues[$0] <= level }
                }
            }
            return Array(minimumPValues.indices)
        }
        var seed: UInt64 = 46
        var differing = 0
        for family in 0..<400 {
            var values: [Double] = []
            for _ in 0..<(1 + family % 300) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let choice = Int(seed >> 60)
                // Exact levels (0.05 / k) and repeated values make ties at the boundary.
                let level: Double = 0.05 / Double(1 + Int(seed >> 40) % 20)
                let spread: Double = pow(10, -9 * Double(seed >> 11) / Double(1 << 53))
                values.append(choice < 4 ? level : spread)
            }
            if MultipleTesting.testableSet(values, alpha: 0.05) != literal(values, alpha: 0.05) { differing += 1 }
        }
        #expect(differing == 0)
    }

    // MARK: Sequential design

    @Test func theLooksSpendTheRateExactlyOnce() {
        let design = SequentialDesign.rounds(maximum: 30)
        #expect(design.looks.first == 2 && design.looks.last == 30)
        #expect(design.looks == design.looks.sorted() && Set(design.looks).count == design.looks.count)
        let shares = design.looks.indices.map { design.share(atLook: $0) }
        #expect(shares.allSatisfy { $0 > 0 })
        let spent: Double = shares.reduce(0, +)
        #expect(abs(spent - 1) < 1e-12)
        // Power family ρ = 2: by look k, (n_k/N)² is spent.
        #expect(abs(design.spent(through: 2) - pow(Double(design.looks[2]) / 30, 2)) < 1e-12)
        // Ending early at look 3 with the rest: everything before plus that is still 1.
        #expect(abs(design.spent(through: 2) + design.share(atLook: 3, final: true) - 1) < 1e-12)
        // A fixed design is one look spending everything.
        #expect(SequentialDesign.fixed(10).looks == [10] && SequentialDesign.fixed(10).share(atLook: 0) == 1)
        #expect(SequentialDesign.rounds(maximum: 2).looks == [2])
    }

    @Test func theForecastGrowsWithNoiseAndShrinksWithDistance() throws {
        let near = try #require(
            RepetitionForecast.repetitions(spread: 0.1, strata: 8, estimate: 0.04, bound: 0.049, familyLevel: 0.001, intervalTail: 0.025))
        let far = try #require(
            RepetitionForecast.repetitions(spread: 0.1, strata: 8, estimate: 0.0, bound: 0.049, familyLevel: 0.001, intervalTail: 0.025))
        let noisy = try #require(
            RepetitionForecast.repetitions(spread: 0.2, strata: 8, estimate: 0.0, bound: 0.049, familyLevel: 0.001, intervalTail: 0.025))
        #expect(near > far && noisy > far)
        // Power counts: (z_{.975} + z_{.9})² / z_{.975}² ≈ 2.7 times the count an interval centred on 0 would first fit at.
        let naive = 2 * Double.pi / 3 * pow(1.959964 * 0.1 / 0.049, 2) / 8
        #expect(Double(far) > 2.5 * naive && Double(far) < 3 * naive + 1)
        // At the threshold nothing decides.
        #expect(
            RepetitionForecast.repetitions(spread: 0.1, strata: 8, estimate: 0.049, bound: 0.049, familyLevel: 0.001, intervalTail: 0.025)
                == 10_000)
        #expect(
            RepetitionForecast.repetitions(spread: 0, strata: 8, estimate: 0, bound: 0.049, familyLevel: 0.001, intervalTail: 0.025) == nil)
    }

    @Test func durationsParseAsWritten() {
        #expect(DurationText.seconds("90") == 90 && DurationText.seconds("90s") == 90 && DurationText.seconds("20m") == 1200)
        #expect(DurationText.seconds("1h30m") == 5400 && DurationText.seconds("500ms") == 0.5)
        #expect(
            DurationText.seconds("") == nil && DurationText.seconds("-5") == nil && DurationText.seconds("5 weeks") == nil
                && DurationText.seconds("m") == nil)
        #expect(DurationText.format(1200) == "20m" && DurationText.format(5400) == "1h30m" && DurationText.format(45) == "45s")
    }

    @Test func holmAdjustsStepDown() {
        // p = [0.01, 0.04, 0.03, 0.005] → sorted 0.005×4, 0.01×3, 0.03×2, 0.04×1 → 0.02, 0.03, 0.06, 0.06
        let adjusted = Holm.adjust([0.01, 0.04, 0.03, 0.005])
        #expect(zip(adjusted, [0.03, 0.06, 0.06, 0.02]).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(Holm.adjust([0.9, 0.8]) == [1, 1])
    }

    @Test func normalQuantileInvertsTheTail() {
        for p in [1e-6, 0.001, 0.025, 0.5, 0.9, 0.999999] {
            let z = RankShift.normalQuantile(p)
            #expect(abs((1 - RankShift.normalUpperTail(z)) - p) < 1e-12 * max(1, 1 / p))
        }
        #expect(abs(RankShift.normalQuantile(0.975) - 1.959963984540054) < 1e-12)
    }
}

/// Credentials never reach what ChatEval writes or prints.
@Suite struct SecretsTests {
    @Test func urlsAndCommandsLoseTheirCredentials() {
        let url = "http://alice:hunter2@gpu:8000/v1?api_key=sk-123456&model=x"
        let redacted = Secrets.redactURL(url)
        #expect(!redacted.contains("hunter2") && !redacted.contains("sk-123456"))
        #expect(redacted.contains("alice") && redacted.contains("model=x") && redacted.contains("gpu:8000"))
        #expect(Secrets.redactURL("suites/smoke.yaml") == "suites/smoke.yaml")
        let command = Secrets.redactCommand([
            "chateval", "run", "--base-url", url, "--request-field", "key=http://u:p@h/x", "--api-key", "abc", "--token=xyz",
        ])
        #expect(!command.joined(separator: " ").contains("hunter2") && !command.contains("abc") && !command.contains { $0.contains("xyz") })
        #expect(command.contains("--token=[redacted]"))
    }

    /// Issue 28, finding 12: `--request-field api_key=…` and `password=…` kept their values in
    /// the recorded command. A field whose name is a credential's loses its value, however it is
    /// written; other fields (`max_tokens`, which holds "token") keep theirs.
    @Test func requestFieldsNamedLikeSecretsLoseTheirValuesInTheCommand() {
        let command = Secrets.redactCommand([
            "chateval", "run", "--request-field", "api_key=sk-live-4f1c2d", "--request-field=password=hunter2",
            "--request-field", "apiKey=\"pk-7781\"", "--request-field", "Authorization=Bearer tok-9921", "--request-field",
            "x-goog-api-key=AIza-5512", "--request-field", "client_secret=cs-1234", "--request-field", "max_tokens=64",
            "--request-field", "n_keep=-1",
        ])
        let line = command.joined(separator: " ")
        for secret in ["sk-live-4f1c2d", "hunter2", "pk-7781", "tok-9921", "AIza-5512", "cs-1234"] {
            #expect(!line.contains(secret), "\(secret) is recorded: \(line)")
        }
        #expect(command.contains("api_key=[redacted]") && command.contains("--request-field=password=[redacted]"))
        #expect(command.contains("max_tokens=64") && command.contains("n_keep=-1"), "other fields are kept")
    }

    @Test func aRegisteredSecretIsRedactedFromAnyText() {
        let key = "sk-secret-\(UUID().uuidString)"
        #expect(Secrets.redact("the key \(key) is wrong") == "the key \(key) is wrong")
        Secrets.register(key)
        #expect(Secrets.redact("the key \(key) is wrong") == "the key [redacted] is wrong")
        #expect(String(decoding: Secrets.redact(Data("{\"m\": \"\(key)\"}".utf8)), as: UTF8.self) == "{\"m\": \"[redacted]\"}")
        Secrets.register("abc")  // too short to be a key: ordinary words stay
        #expect(Secrets.redact("abc") == "abc")
    }

    /// `redact` compares bytes: a secret is redacted in either normal form it is echoed in (one
    /// code point "é", or "e" and a combining accent), beside any text, and every occurrence.
    @Test func aSecretIsRedactedInEitherNormalFormAndEveryOccurrence() {
        let tag = UUID().uuidString.prefix(8)
        let composed = "pässwörd-\(tag)", decomposed = composed.decomposedStringWithCanonicalMapping
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        Secrets.register(composed)
        #expect(Secrets.redact("a \(composed) b") == "a [redacted] b")
        #expect(Secrets.redact("a \(decomposed) b") == "a [redacted] b")
        #expect(Secrets.redact("日本\(composed)\(composed)é") == "日本[redacted][redacted]é")
        #expect(Secrets.redact("pässwörd-") == "pässwörd-")
    }
}
