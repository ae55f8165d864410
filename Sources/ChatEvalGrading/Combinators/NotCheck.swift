import ChatEvalCore

/// `not`: passes when the nested check fails; a nested check that cannot be evaluated is an error, not a pass.
struct NotCheck: CheckEvaluator {
    let check: Check

    var readsMeasurements: Bool? { check.readsMeasurements }

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let verdict = check.evaluate(subject)
        if let error = verdict.error {
            return .failure(error: error, "nested \(verdict.check) could not be evaluated: \(verdict.detail)")
        }
        return Outcome(
            passed: !verdict.passed, score: verdict.score.map { 1 - $0 },
            detail: "nested \(verdict.check) \(verdict.passed ? "passed" : "failed"): \(verdict.detail)")
    }
}
