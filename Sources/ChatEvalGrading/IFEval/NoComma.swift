/// `punctuation:no_comma`: no `,` (U+002C) anywhere.
struct NoComma: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        if let at = value.firstIndex(of: ",") {
            return IFEvalResult(followed: false, detail: "expected no comma; found one: \(Excerpt.around(value, at..<(at + 1)))")
        }
        return IFEvalResult(followed: true, detail: "no comma")
    }
}
