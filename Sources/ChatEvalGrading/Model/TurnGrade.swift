import ChatEvalCore

/// The grade of one turn: every check's verdict and the weighted pass rate.
public struct TurnGrade: Sendable, Hashable, Codable {
    public var verdicts: [Verdict]
    /// Σ weight × passed / Σ weight, in 0...1; nil when there are no checks (or all weights are 0).
    public var score: Double?
    /// True when every verdict passed.
    public var passed: Bool { verdicts.allSatisfy(\.passed) }

    public init(verdicts: [Verdict], score: Double?) {
        self.verdicts = verdicts
        self.score = score
    }
}
