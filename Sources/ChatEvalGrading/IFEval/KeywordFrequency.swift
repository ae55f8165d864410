/// `keywords:frequency`: `len(re.findall(keyword, value, re.IGNORECASE))` against the relation.
struct KeywordFrequency: IFEvalInstruction {
    let keyword: String
    let regex: PythonRegex
    let frequency: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let found = try regex.ifevalMatches(value)
        let ok = relation.holds(found.count, frequency)
        var detail = "expected \"\(keyword)\" \(relation.describe(frequency, "times")), found \(found.count)"
        if let first = found.first { detail += "; first: \(Excerpt.around(value, first.range))" }
        return IFEvalResult(followed: ok, detail: detail)
    }
}
