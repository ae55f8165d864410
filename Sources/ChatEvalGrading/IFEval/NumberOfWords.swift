/// `length_constraints:number_words`: `\w+` runs against the relation.
struct NumberOfWords: IFEvalInstruction {
    let threshold: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let n = IFEvalText.countWords(value)
        return IFEvalResult(followed: relation.holds(n, threshold), detail: "expected \(relation.describe(threshold, "words")), found \(n)")
    }
}
