/// `length_constraints:nth_paragraph_first_word`: paragraphs split by `\n\n`; the count of
/// non-blank ones must equal `num_paragraphs` and the nth piece's first word (leading ' and "
/// removed, cut at the first of . , ? ! ' ", lowercased) must be `first_word`.
struct NthParagraphFirstWord: IFEvalInstruction {
    let numParagraphs: Int
    let nth: Int
    let firstWord: Scalars

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let paragraphs = PythonText.split(value[...], separator: ["\n", "\n"])
        let count = paragraphs.filter { !PythonText.isBlank($0) }.count
        guard nth <= count else {
            return IFEvalResult(
                followed: false, detail: "expected paragraph \(nth) to exist; found \(count) non-empty paragraphs separated by blank lines")
        }
        let paragraph = PythonText.strip(Array(paragraphs[nth - 1]))
        guard !paragraph.isEmpty else {
            return IFEvalResult(followed: false, detail: "paragraph \(nth) is empty")
        }
        var word = PythonText.strip(PythonText.splitWhitespace(paragraph)[0], where: PythonText.isSpace)
        while word.first == "'" { word = word.dropFirst() }
        while word.first == "\"" { word = word.dropFirst() }
        var first = Scalars()
        for c in word {
            if [".", ",", "?", "!", "'", "\""].contains(c) { break }
            first.append(contentsOf: PythonText.lower([c]))
        }
        let ok = count == numParagraphs && first == firstWord
        return IFEvalResult(
            followed: ok,
            detail:
                "expected \(numParagraphs) paragraphs with paragraph \(nth) starting with \"\(String(scalars: firstWord))\"; "
                + "found \(count) paragraphs, paragraph \(nth) starts with \"\(String(scalars: first))\""
        )
    }
}
