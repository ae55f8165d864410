/// `keywords:forbidden_words`: none of `\bword\b` (ignoring case) found.
struct ForbiddenWords: IFEvalInstruction {
    let words: [(String, PythonRegex)]

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        for (word, regex) in words {
            if let hit = try regex.ifevalSearch(value) {
                return IFEvalResult(followed: false, detail: "forbidden word \"\(word)\" found: \(Excerpt.around(value, hit.range))")
            }
        }
        return IFEvalResult(followed: true, detail: "none of the \(words.count) forbidden words found")
    }
}
