/// `detectable_format:multiple_sections`: matches of `\s?` + splitter + `\s?\d+\s?` (the splitter
/// is a regex, case-sensitive), at least `num_sections`.
struct MultipleSections: IFEvalInstruction {
    let splitter: String
    let regex: PythonRegex
    let minimum: Int

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let n = try regex.ifevalCount(value).count
        return IFEvalResult(followed: n >= minimum, detail: "expected at least \(minimum) sections marked \"\(splitter) N\", found \(n)")
    }
}
