import ChatEvalCore

/// `all`: passes when every nested check passes; its score is the nested scores' weighted mean.
struct AllCheck: CheckEvaluator {
    let checks: [Check]

    var readsMeasurements: Bool? { checks.contains { $0.readsMeasurements } }

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let verdicts = checks.map { $0.evaluate(subject) }
        let total = checks.reduce(0) { $0 + $1.weight }
        let score = total > 0 ? zip(checks, verdicts).reduce(0) { $0 + $1.0.weight * Combinators.verdictScore($1.1) } / total : nil
        if let failed = verdicts.first(where: { !$0.passed }) {
            let count = verdicts.filter { !$0.passed }.count
            return .fail("\(count) of \(verdicts.count) nested checks failed; first, \(failed.check): \(failed.detail)", score: score)
        }
        return .pass("all \(verdicts.count) nested checks passed (\(Combinators.summary(verdicts)))", score: score)
    }
}
