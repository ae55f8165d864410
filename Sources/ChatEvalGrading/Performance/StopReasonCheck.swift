import ChatEvalCore

/// `stop_reason`: the turn ended as expected (end of generation, max_tokens, a stop string); a failed turn fails it.
struct StopReasonCheck: CheckEvaluator {
    let expected: StopReason

    func evaluate(_ subject: GradingSubject) -> Outcome {
        guard let metrics = subject.metrics else {
            return .fail(
                "expected stop reason \(expected.rawValue); "
                    + "\(subject.failure.map { "the turn failed (\($0))" } ?? "the turn has no metrics")"
            )
        }
        guard let stopReason = metrics.stopReason else {
            return .fail("expected stop reason \(expected.rawValue); not given for this turn")
        }
        return .judge(stopReason == expected, "expected stop reason \(expected.rawValue), got \(stopReason.rawValue)")
    }
}
