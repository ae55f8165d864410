import ChatEvalCore

/// A validated, ready-to-run check, as built by `CheckCatalogue.make`.
public struct Check: Sendable {
    /// The type name as written (`contains`, `not-regex`, `keywords:frequency`...).
    public let type: String
    /// Share of this check in a turn's score (`weight`, default 1).
    public let weight: Double
    /// For checks with a score: pass when score ≥ threshold (`threshold`), instead of the check's own rule.
    public let threshold: Double?
    /// True for `not-…` checks: the verdict of the base check, inverted.
    public let isNegated: Bool
    let evaluator: any CheckEvaluator

    init(type: String, weight: Double, threshold: Double?, isNegated: Bool, evaluator: any CheckEvaluator) {
        self.type = type
        self.weight = weight
        self.threshold = threshold
        self.isNegated = isNegated
        self.evaluator = evaluator
    }

    /// True when the verdict reads the turn's timings or memory: a limit on a time, rate or memory,
    /// or a combinator holding one (recorded as `Verdict.measured`).
    public var readsMeasurements: Bool { evaluator.readsMeasurements ?? false }

    /// Grades `subject`. Never throws: a check that cannot be evaluated gives a failed verdict
    /// with `error` set (and negation does not turn such an error into a pass).
    public func evaluate(_ subject: GradingSubject) -> Verdict {
        // Every regex operation of this check draws on the answer's pool (shared by all its checks);
        // bound once per answer by `GradingSubject.sharingOneBudget`, so a turn's checks do not each push a task-local.
        let pool = subject.analysis.regexSteps
        var outcome =
            RegexStepPool.current === pool
            ? evaluator.evaluate(subject) : RegexStepPool.$current.withValue(pool) { evaluator.evaluate(subject) }
        if outcome.error == nil, let threshold, let score = outcome.score {
            outcome.passed = score >= threshold
            outcome.detail +=
                " (score \(DetailNumbers.score(score)) \(outcome.passed ? "≥" : "<") threshold \(DetailNumbers.score(threshold)))"
        }
        if isNegated && outcome.error == nil {
            outcome.passed.toggle()
            outcome.score = outcome.score.map { 1 - $0 }
            outcome.detail = "negated, so \(outcome.passed ? "passes" : "fails"): " + outcome.detail
        }
        var verdict = Verdict(
            check: type, passed: outcome.passed, score: outcome.score, detail: outcome.detail, error: outcome.error,
            weight: weight)
        verdict.measured = evaluator.readsMeasurements
        return verdict
    }
}

extension Check {
    /// Grades a turn: each check's verdict, and the weighted pass rate of the checks.
    public static func grade(_ checks: [Check], _ subject: GradingSubject) -> TurnGrade {
        let verdicts = subject.sharingOneBudget { checks.map { $0.evaluate(subject) } }
        return TurnGrade(verdicts: verdicts, score: Verdict.passRate(verdicts))
    }
}
