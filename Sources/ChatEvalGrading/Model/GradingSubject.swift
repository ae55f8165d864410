import ChatEvalCore
import Foundation

/// What a check looks at: one turn's answer (or its failure) and measurements, plus the metrics
/// of every turn of the conversation for conversation-level performance checks.
public struct GradingSubject: Sendable {
    /// The answer text; empty when the turn failed.
    public let answer: String
    /// Measurements of this turn; nil when it failed before answering or none were given.
    public let metrics: MetricReadings?
    /// Why the turn produced no answer, if it did not.
    public let failure: RuntimeFailure?
    /// Measurements of all the conversation's turns that have them, in order (this one included).
    public let conversationMetrics: [MetricReadings]
    /// Derived forms of the answer, computed once on first use and shared by all checks.
    let analysis: AnswerAnalysis

    public init(
        answer: String, readings: MetricReadings?, failure: RuntimeFailure? = nil,
        conversationReadings: [MetricReadings]? = nil
    ) {
        self.answer = answer
        self.metrics = readings
        self.failure = failure
        self.conversationMetrics = conversationReadings ?? readings.map { [$0] } ?? []
        self.analysis = AnswerAnalysis(answer)
    }

    /// A subject for a turn ChatEval measured.
    public init(
        answer: String, metrics: TurnMetrics? = nil, failure: RuntimeFailure? = nil,
        conversationMetrics: [TurnMetrics]? = nil
    ) {
        self.init(
            answer: answer, readings: metrics.map(MetricReadings.init), failure: failure,
            conversationReadings: conversationMetrics?.map(MetricReadings.init))
    }

    /// `body`'s result, with this answer's regex step budget bound for every check evaluated in
    /// it: `Check.evaluate` binds it itself otherwise, once per check.
    public func sharingOneBudget<T>(_ body: () throws -> T) rethrows -> T {
        try RegexStepPool.$current.withValue(analysis.regexSteps) { try body() }
    }

    /// A subject for a turn that failed.
    public static func failed(_ failure: RuntimeFailure, conversationReadings: [MetricReadings] = []) -> GradingSubject {
        GradingSubject(answer: "", readings: nil, failure: failure, conversationReadings: conversationReadings)
    }
}
