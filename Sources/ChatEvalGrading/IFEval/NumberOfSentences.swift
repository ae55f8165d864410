/// `length_constraints:number_sentences`: Punkt sentence count against the relation.
struct NumberOfSentences: IFEvalInstruction {
    let threshold: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let n = PunktSentenceTokenizer.english.countSentences(value)
        return IFEvalResult(
            followed: relation.holds(n, threshold), detail: "expected \(relation.describe(threshold, "sentences")), found \(n)")
    }
}
