/// `combination:repeat_prompt`: the stripped, lowercased answer starts with the stripped,
/// lowercased prompt.
struct RepeatPrompt: IFEvalInstruction {
    let prompt: String

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let answer = PythonText.lower(Array(PythonText.strip(value)))
        let wanted = PythonText.lower(Array(PythonText.strip(prompt.scalars)))
        let ok = PythonText.hasPrefix(answer, wanted)
        return IFEvalResult(
            followed: ok,
            detail: ok
                ? "answer starts with the prompt"
                : "expected the answer to start with the prompt \(Excerpt.head(prompt, width: 40)); "
                    + "it starts \(IFEvalPatterns.quote(value))"
        )
    }
}
