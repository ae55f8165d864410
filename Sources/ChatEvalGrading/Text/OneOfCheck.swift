/// `one-of`: the trimmed answer equals one of the choices (exactly).
struct OneOfCheck: CheckEvaluator {
    let choices: [String]

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let answer = PythonText.strip(subject.analysis.scalars)
        if let hit = choices.first(where: { answer.elementsEqual($0.scalars) }) {
            return .pass("answer is \(Excerpt.head(hit))")
        }
        let list = choices.prefix(5).map { "\"\(Excerpt.clip($0, to: 30))\"" }.joined(separator: ", ") + (choices.count > 5 ? ", …" : "")
        return .fail("expected one of \(list); found \(Excerpt.head(answer))")
    }
}
