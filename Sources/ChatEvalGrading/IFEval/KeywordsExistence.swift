/// `keywords:existence`: every keyword found by `re.search(keyword, value, re.IGNORECASE)`
/// (keywords are regexes in the reference too).
struct KeywordsExistence: IFEvalInstruction {
    let keywords: [(String, PythonRegex)]

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        for (keyword, regex) in keywords.sorted(by: { $0.0 < $1.0 }) where try regex.ifevalSearch(value) == nil {
            return IFEvalResult(
                followed: false, detail: "keyword \"\(keyword)\" not found (ignoring case) in \(IFEvalPatterns.quote(value))")
        }
        return IFEvalResult(followed: true, detail: "all \(keywords.count) keywords found")
    }
}
