import ChatEvalCore

/// `failure`: passes only when the turn failed (with the given code, if any).
struct FailureCheck: CheckEvaluator {
    let code: RuntimeFailure.Code?

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let wanted = code.map { "failure \($0.rawValue)" } ?? "a failure"
        guard let failure = subject.failure else {
            return .fail("expected \(wanted); the turn answered: \(subject.analysis.quotedHead)")
        }
        if let code, failure.code != code {
            return .fail("expected \(wanted); the turn failed with \(failure)")
        }
        return .pass("the turn failed as expected: \(failure)")
    }
}
