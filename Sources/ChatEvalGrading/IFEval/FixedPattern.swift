/// A regex fixed by IFEval or NLTK, compiled once. Tests check that each compiles; should one
/// not, checks using it report an evaluation error instead of trapping.
struct FixedPattern: Sendable {
    let pattern: String
    let regex: PythonRegex?

    init(_ pattern: String, _ flags: RegexFlags = []) {
        self.pattern = pattern
        regex = try? PythonRegex(pattern, flags: flags)
    }
}

extension FixedPattern {
    func count(_ s: Scalars) throws(IFEvalEvaluationError) -> Int {
        try matches(s).count
    }

    func firstMatch(_ s: Scalars) throws(IFEvalEvaluationError) -> RegexMatch? {
        guard let regex else { throw .pattern(self) }
        do { return try regex.search(s) } catch { throw .regex(error) }
    }

    func matches(_ s: Scalars) throws(IFEvalEvaluationError) -> [RegexMatch] {
        guard let regex else { throw .pattern(self) }
        do { return try regex.matches(s) } catch { throw .regex(error) }
    }
}
