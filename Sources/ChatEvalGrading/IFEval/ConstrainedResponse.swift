/// `detectable_format:constrained_response`: the stripped answer contains "My answer is yes.",
/// "My answer is no." or "My answer is maybe.".
struct ConstrainedResponse: IFEvalInstruction {
    static let options = ["My answer is yes.", "My answer is no.", "My answer is maybe."]

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let stripped = PythonText.strip(value)
        for option in Self.options where PythonText.contains(stripped, option.scalars) {
            return IFEvalResult(followed: true, detail: "contains \"\(option)\"")
        }
        return IFEvalResult(
            followed: false,
            detail:
                "expected one of \"My answer is yes.\", \"My answer is no.\", \"My answer is maybe.\"; "
                + "found \(IFEvalPatterns.quote(stripped))"
        )
    }
}
