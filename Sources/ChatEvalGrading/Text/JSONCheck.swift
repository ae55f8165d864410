import ChatEvalCore

/// `json`: the answer parses as JSON (fences allowed when asked), of the root type given, with every required path of its type.
struct JSONCheck: CheckEvaluator {
    let requirements: [JSONRequirement]
    let allowFences: Bool
    let rootType: JSONType?

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let text = allowFences ? JSONChecks.stripFences(subject.analysis.scalars) : PythonText.strip(subject.analysis.scalars)
        let value: ParsedJSON
        switch PythonJSON.parse(text) {
        case .failure(let problem):
            let at = Swift.min(problem.offset, text.count)
            return .fail("expected valid JSON; \(problem.message) at character \(at): \(Excerpt.around(Array(text), at..<at))")
        case .success(let v): value = v
        }
        if let rootType, !rootType.accepts(value) {
            return .fail("expected a JSON \(rootType.rawValue) at the top level, found \(value.typeName): \(subject.analysis.quotedHead)")
        }
        for requirement in requirements {
            switch requirement.path.resolve(value) {
            case .failure(let why):
                return .fail("expected \(requirement.path) (\(requirement.type.rawValue)); \(why): \(Excerpt.head(String(scalars: text)))")
            case .success(let values):
                if let wrong = values.first(where: { !requirement.type.accepts($0) }) {
                    return .fail(
                        "expected \(requirement.path) to be \(requirement.type.rawValue), found \(wrong.typeName): "
                            + "\(Excerpt.head(String(scalars: text)))"
                    )
                }
            }
        }
        let paths = requirements.isEmpty ? "" : " with \(requirements.count) required path\(requirements.count == 1 ? "" : "s")"
        return .pass("valid JSON \(value.typeName)\(paths): \(Excerpt.head(String(scalars: text)))")
    }
}
