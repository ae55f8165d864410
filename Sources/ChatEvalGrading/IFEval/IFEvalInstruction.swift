/// IFEval instructions about words, letters, case, language and punctuation. Each `check` is
/// IFEval's `check_following` (lm-evaluation-harness `instructions.py`), on code points.
protocol IFEvalInstruction: Sendable {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult
}
