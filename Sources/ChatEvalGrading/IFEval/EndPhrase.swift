/// `startend:end_checker`: `value.strip().strip('"').lower()` ends with the lowercased phrase.
struct EndPhrase: IFEvalInstruction {
    let phrase: String

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let stripped = PythonText.strip(PythonText.strip(value), where: { $0 == "\"" })
        let answer = PythonText.lower(Array(stripped))
        let wanted = PythonText.lower(Array(PythonText.strip(phrase.scalars)))
        let ok = PythonText.hasSuffix(answer, wanted)
        return IFEvalResult(
            followed: ok,
            detail: ok
                ? "ends with \"\(phrase)\""
                : "expected the answer to end with \"\(phrase)\"; it ends \(Excerpt.tail(String(scalars: stripped)))")
    }
}
