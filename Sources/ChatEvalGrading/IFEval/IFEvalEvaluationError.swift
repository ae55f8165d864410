/// Why an IFEval instruction could not be evaluated.
struct IFEvalEvaluationError: Error, Sendable {
    var message: String

    static func regex(_ error: PCRE2Error) -> IFEvalEvaluationError {
        IFEvalEvaluationError(message: error.verdictError + " (\(error))")
    }

    static func pattern(_ p: FixedPattern) -> IFEvalEvaluationError {
        IFEvalEvaluationError(message: "internal pattern \(p.pattern) did not compile")
    }
}
