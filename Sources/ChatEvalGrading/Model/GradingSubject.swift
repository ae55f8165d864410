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

    /// A subject for a turn that failed.
    public static func failed(_ failure: RuntimeFailure, conversationReadings: [MetricReadings] = []) -> GradingSubject {
        GradingSubject(answer: "", readings: nil, failure: failure, conversationReadings: conversationReadings)
    }
}
