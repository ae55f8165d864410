import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites

/// One line of an answers file (JSON Lines), for grading without a model:
/// `{"conversation": "capital", "turn": 1, "answer": "Paris.", "metrics": {...}, "failure": {...}}`.
///
/// `turn` is 1-based. `metrics` uses the result files' names (`time_to_first_token`,
/// `total_time`, `generated_tokens`...) and may give only some of them: a tool that knows only
/// the time to the first token can still be graded on it. `finish_reason` (OpenAI's `stop` or
/// `length`, or ChatEval's stop reasons) may stand at the line's top level, as in an OpenAI
/// choice, or as `stop_reason` inside `metrics`. `failure` is `{code, message}`.
public struct AnswerLine: Sendable {
    public var conversation: String
    public var turn: Int
    public var answer: String?
    /// The measurements, when the line gives all of them (they are then recorded with the turn).
    public var metrics: TurnMetrics?
    /// What the line says of the turn's metrics, all or some.
    public var readings: MetricReadings?
    public var failure: RuntimeFailure?
}
