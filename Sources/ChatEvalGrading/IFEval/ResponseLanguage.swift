/// `language:response_language`: the detected language is the expected one; IFEval counts a
/// text without letters (langdetect raises) as followed.
struct ResponseLanguage: IFEvalInstruction {
    let language: String

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        guard let identifier = LanguageIdentifier.shared else {
            throw IFEvalEvaluationError(message: "language identification unavailable (install libexttextcat-data)")
        }
        guard let detected = identifier.detect(value) else {
            return IFEvalResult(followed: true, detail: "no letters to identify a language (IFEval counts this as followed)")
        }
        return IFEvalResult(
            followed: detected == language, detail: "expected language \(language), detected \(detected): \(IFEvalPatterns.quote(value))")
    }
}
