import ChatEvalCore

/// Evaluates one kind of check against a subject. Implementations are immutable values built
/// (and validated) by the catalogue; `evaluate` is pure and never throws or traps.
protocol CheckEvaluator: Sendable {
    func evaluate(_ subject: GradingSubject) -> Outcome
}
