/// `change_case:capital_word_frequency`: tokens of `nltk.word_tokenize` that are `isupper()`.
struct CapitalWordFrequency: IFEvalInstruction {
    let frequency: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        var count = 0
        var shown: [String] = []
        do {
            try NLTKWordTokenizer.forEachToken(in: value) { token in
                guard PythonText.isUpper(token) else { return }
                count += 1
                if shown.count < 5 { shown.append(String(scalars: token)) }
            }
        } catch {
            throw .regex(error)
        }
        var detail = "expected all-capital words \(relation.describe(frequency, "times")), found \(count)"
        if !shown.isEmpty { detail += ": " + shown.joined(separator: ", ") + (count > 5 ? ", …" : "") }
        return IFEvalResult(followed: relation.holds(count, frequency), detail: detail)
    }
}
