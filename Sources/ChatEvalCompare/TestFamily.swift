import ChatEvalCore

/// The tests decided together: gated suite metrics, checks and turn outcomes.
public struct TestFamily: Codable, Sendable, Hashable {
    /// Tests in the family.
    public var tests: Int
    /// Tests decided at the family's level (all of them when the family is decided by relabelling
    /// replays; before, the tests Tarone's rule kept for Holm's adjustment).
    public var testable: Int
    /// Relabellings of the replays that decided the family (`JointPermutation`); absent in
    /// comparisons written before it (Tarone and Holm decided those).
    public var labelings: Int?
    /// True when every relabelling was enumerated (the adjusted p-values are exact).
    public var exact: Bool?

    public init(tests: Int, testable: Int, labelings: Int? = nil, exact: Bool? = nil) {
        self.tests = tests
        self.testable = testable
        self.labelings = labelings
        self.exact = exact
    }
}
