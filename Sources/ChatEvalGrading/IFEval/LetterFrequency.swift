/// `keywords:letter_frequency`: occurrences of the letter in `value.lower()`.
struct LetterFrequency: IFEvalInstruction {
    let letter: Unicode.Scalar
    let frequency: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let count = PythonText.lower(value).reduce(0) { $0 + ($1 == letter ? 1 : 0) }
        return IFEvalResult(
            followed: relation.holds(count, frequency),
            detail: "expected letter \"\(letter)\" \(relation.describe(frequency, "times")) (ignoring case), found \(count)")
    }
}
