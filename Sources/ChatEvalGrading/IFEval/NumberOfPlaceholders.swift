/// `detectable_content:number_placeholders`: `\[.*?\]` matches, at least `num_placeholders`.
struct NumberOfPlaceholders: IFEvalInstruction {
    let minimum: Int

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let n = try IFEvalPatterns.placeholder.count(value)
        return IFEvalResult(followed: n >= minimum, detail: "expected at least \(minimum) [placeholders], found \(n)")
    }
}
