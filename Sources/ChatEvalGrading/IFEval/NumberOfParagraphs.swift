/// `length_constraints:number_paragraphs`: pieces split by `\s?\*\*\*\s?`; empty pieces are
/// allowed only first or last (not counted); an empty piece in between fails.
struct NumberOfParagraphs: IFEvalInstruction {
    let expected: Int

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let pieces = try IFEvalPatterns.split(value, IFEvalPatterns.paragraphSeparator)
        var count = pieces.count
        for (index, piece) in pieces.enumerated() where PythonText.isBlank(piece) {
            if index == 0 || index == pieces.count - 1 {
                count -= 1
            } else {
                return IFEvalResult(followed: false, detail: "paragraph \(index + 1) (between *** separators) is empty")
            }
        }
        return IFEvalResult(followed: count == expected, detail: "expected \(expected) paragraphs separated by ***, found \(count)")
    }
}
