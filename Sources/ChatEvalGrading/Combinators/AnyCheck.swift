import ChatEvalCore

/// `any`: passes when at least one nested check passes; its score is the best nested score.
struct AnyCheck: CheckEvaluator {
    let checks: [Check]

    var readsMeasurements: Bool? { checks.contains { $0.readsMeasurements } }

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let verdicts = checks.map { $0.evaluate(subject) }
        let score = verdicts.map(Combinators.verdictScore).max()
        if let passed = verdicts.first(where: \.passed) {
            return .pass("\(passed.check) passed: \(passed.detail)", score: score)
        }
        if verdicts.allSatisfy(\.isError), let first = verdicts.first {
            return .failure(error: first.error ?? "error", "every nested check failed to evaluate; first: \(first.detail)")
        }
        return .fail("none of \(verdicts.count) nested checks passed (\(Combinators.summary(verdicts)))", score: score)
    }
}
