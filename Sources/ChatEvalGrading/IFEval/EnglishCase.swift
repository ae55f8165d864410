/// `change_case:english_capital` / `english_lowercase`: `value.isupper()` (or `islower()`) and
/// English detected; when the case test passes but no language can be detected, followed (as IFEval).
struct EnglishCase: IFEvalInstruction {
    let upper: Bool

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let caseOK = upper ? PythonText.isUpper(value) : PythonText.isLower(value)
        let what = upper ? "all capital letters" : "all lowercase letters"
        guard caseOK else {
            let offender = value.firstIndex {
                upper
                    ? (PythonText.isLowerChar($0) || PythonText.isTitleChar($0))
                    : (PythonText.isUpperChar($0) || PythonText.isTitleChar($0))
            }
            let at = offender.map { Excerpt.around(value, $0..<($0 + 1)) } ?? IFEvalPatterns.quote(value)
            return IFEvalResult(followed: false, detail: "expected \(what); \(offender == nil ? "no cased letter in" : "found") \(at)")
        }
        guard let identifier = LanguageIdentifier.shared else {
            throw IFEvalEvaluationError(message: "language identification unavailable (install libexttextcat-data)")
        }
        guard let detected = identifier.detect(value) else {
            return IFEvalResult(followed: true, detail: "\(what); no language detectable (IFEval counts this as followed)")
        }
        return IFEvalResult(followed: detected == "en", detail: "\(what); expected English, detected \(detected)")
    }
}
