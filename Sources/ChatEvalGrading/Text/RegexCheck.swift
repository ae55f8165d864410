import ChatEvalCore

/// `regex`: a search anywhere in the answer, under `limits`.
struct RegexCheck: CheckEvaluator {
    let pattern: String
    let regex: PythonRegex?
    let limits: RegexLimits
    /// The pattern as details show it, `/…/`, written once, and used while no secret is registered.
    private let builtShown: String
    private var shown: String { Secrets.isEmpty ? builtShown : Self.shown(pattern) }

    private static func shown(_ pattern: String) -> String { "/\(Excerpt.clip(pattern, to: 40))/" }

    init(pattern: String, regex: PythonRegex?, limits: RegexLimits = .standard) {
        self.pattern = pattern
        self.regex = regex
        self.limits = limits
        builtShown = Self.shown(pattern)
    }

    func evaluate(_ subject: GradingSubject) -> Outcome {
        guard let regex else {
            return .failure(error: "regex not compiled", "the pattern still contains a placeholder: \(Excerpt.head(pattern))")
        }
        do {
            if let match = try regex.search(subject.analysis.scalars, limits: limits) {
                return .pass("\(shown) matches: \(Excerpt.around(subject.analysis.scalars, match.range))")
            }
            return .fail("expected a match of \(shown); none in \(subject.analysis.quotedHead)")
        } catch {
            let shared =
                subject.analysis.regexSteps.left == 0
                ? " (the \(RegexStepPool.perAnswer) steps all checks of an answer share are spent)" : ""
            return .failure(
                error: error.verdictError,
                "\(shown) gave up on a \(subject.analysis.scalars.count)-character answer: \(error)\(shared)")
        }
    }
}
