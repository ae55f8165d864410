import ChatEvalCore

/// Evaluates one kind of check against a subject. Implementations are immutable values built
/// (and validated) by the catalogue; `evaluate` is pure and never throws or traps.
protocol CheckEvaluator: Sendable {
    func evaluate(_ subject: GradingSubject) -> Outcome
    /// True when the verdict reads the turn's timings or memory (`Verdict.measured`); nil for a
    /// check that reads the answer alone. Default nil.
    var readsMeasurements: Bool? { get }
}

extension CheckEvaluator {
    var readsMeasurements: Bool? { nil }
}
