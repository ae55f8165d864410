/// One family of tests decided together at one error rate: Tarone's rule picks the tests that
/// can reach significance at all, then Holm's adjustment runs over those alone.
///
/// Discrete tests (a rank test of one value per side, Fisher's test of 1 pass in 1 against 0 in
/// 1) often cannot reach a small p-value however their data fall; counting them in the family
/// would only make every other test pay for them. Tarone (Biometrics 1990, "A modified Bonferroni
/// method for discrete data") leaves them out: with K the smallest number such that at most K
/// tests can reach α/K, the family is the tests whose smallest achievable p-value is at most α/K.
/// Each test's smallest achievable p-value depends only on what the test conditions on (the
/// values pooled over both sides, or a 2×2 table's margins), never on which side they fell, so
/// the chosen family is fixed given those and Holm's guarantee holds within it (Hommel &
/// Krummenauer, Biometrics 1998). Tests left out are reported as "not testable at this rate".
public enum MultipleTesting {
    public struct Decision: Sendable, Hashable {
        /// Holm-adjusted p-value within the testable family; nil when the test was left out.
        public var adjustedPValue: Double?
        public var significant: Bool

        public init(adjustedPValue: Double?, significant: Bool) {
            self.adjustedPValue = adjustedPValue
            self.significant = significant
        }
    }

    /// Decides `tests` (p-value, smallest achievable p-value) at family-wise rate `alpha`.
    public static func decide(_ tests: [(pValue: Double, minimumPValue: Double)], alpha: Double) -> [Decision] {
        let testable = testableSet(tests.map(\.minimumPValue), alpha: alpha)
        let adjusted = Holm.adjust(testable.map { tests[$0].pValue })
        var decisions = tests.map { _ in Decision(adjustedPValue: nil, significant: false) }
        for (position, index) in testable.enumerated() {
            decisions[index] = Decision(adjustedPValue: adjusted[position], significant: adjusted[position] <= alpha)
        }
        return decisions
    }

    /// Indices of the tests Tarone's rule keeps: with K the smallest count such that at most K
    /// tests have a smallest achievable p-value ≤ α/K, those tests.
    public static func testableSet(_ minimumPValues: [Double], alpha: Double) -> [Int] {
        guard !minimumPValues.isEmpty, alpha > 0 else { return [] }
        let sorted = minimumPValues.sorted()
        // Tests reaching the level: the prefix of the sorted list at most `alpha / k`. The level
        // falls as k grows, so the prefix only shrinks: one pass down the list, not one per k.
        var reaching = sorted.count
        for k in 1...minimumPValues.count {
            let level = alpha / Double(k)
            while reaching > 0 && !(sorted[reaching - 1] <= level) { reaching -= 1 }
            if reaching <= k {
                return minimumPValues.indices.filter { minimumPValues[$0] <= level }
            }
        }
        return Array(minimumPValues.indices)
    }
}
