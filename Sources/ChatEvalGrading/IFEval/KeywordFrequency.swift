/// `keywords:frequency`: `len(re.findall(keyword, value, re.IGNORECASE))` against the relation.
struct KeywordFrequency: IFEvalInstruction {
    let keyword: String
    let regex: PythonRegex
    let frequency: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let (count, first) = try regex.ifevalCount(value)
        let ok = relation.holds(count, frequency)
        var detail = "expected \"\(keyword)\" \(relation.describe(frequency, "times")), found \(count)"
        if let first { detail += "; first: \(Excerpt.around(value, first))" }
        return IFEvalResult(followed: ok, detail: detail)
    }
}
