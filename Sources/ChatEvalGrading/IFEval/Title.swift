/// `detectable_format:title`: some `<<…>>` (one line) with non-blank text inside.
struct Title: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        for m in try IFEvalPatterns.title.matches(value) {
            var t = value[m.range]
            while t.first == "<" { t = t.dropFirst() }
            while t.last == ">" { t = t.dropLast() }
            if !PythonText.isBlank(t) { return IFEvalResult(followed: true, detail: "title \(Excerpt.around(value, m.range))") }
        }
        return IFEvalResult(
            followed: false, detail: "expected a title in <<double angular brackets>>; none in \(IFEvalPatterns.quote(value))")
    }
}
