/// `startend:quotation`: the stripped answer is longer than one character and starts and ends with `"`.
struct Quotation: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let s = PythonText.strip(value)
        let ok = s.count > 1 && s.first == "\"" && s.last == "\""
        return IFEvalResult(
            followed: ok,
            detail: ok ? "wrapped in double quotes" : "expected the answer wrapped in double quotes; found \(IFEvalPatterns.quote(s))")
    }
}
