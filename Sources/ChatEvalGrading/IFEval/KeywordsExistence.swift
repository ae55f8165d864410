/// `keywords:existence`: every keyword found by `re.search(keyword, value, re.IGNORECASE)`
/// (keywords are regexes in the reference too).
struct KeywordsExistence: IFEvalInstruction {
    /// In the order they are searched (and the first missing one reported): sorted, as the
    /// reference sorts them.
    let keywords: [(String, PythonRegex)]

    init(keywords: [(String, PythonRegex)]) {
        self.keywords = keywords.sorted(by: { $0.0 < $1.0 })
    }

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        for (keyword, regex) in keywords where try regex.ifevalSearch(value) == nil {
            return IFEvalResult(
                followed: false, detail: "keyword \"\(keyword)\" not found (ignoring case) in \(IFEvalPatterns.quote(value))")
        }
        return IFEvalResult(followed: true, detail: "all \(keywords.count) keywords found")
    }
}
