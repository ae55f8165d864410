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

/// Lazily computed views of an answer. Immutable once computed; a lock guards the first computation.
final class AnswerAnalysis: @unchecked Sendable {
    let text: String
    private let lock = NSLock()
    private var cachedSimpleLowered: Scalars?

    /// Code points, as Python indexes them (computed up front: nearly every check reads them).
    let scalars: Scalars

    /// The regex steps all checks of this answer may still spend.
    let regexSteps = RegexStepPool()

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    /// Code points mapped by simple lowercase (offsets aligned with `scalars`), for `icontains`.
    var simpleLowered: Scalars {
        lock.lock()
        let existing = cachedSimpleLowered
        lock.unlock()
        if let existing { return existing }
        let value = scalars.simpleLowercased
        lock.lock()
        defer { lock.unlock() }
        if cachedSimpleLowered == nil { cachedSimpleLowered = value }
        return cachedSimpleLowered ?? value
    }
}
