/// `starts-with` / `ends-with`.
struct AffixCheck: CheckEvaluator {
    let affix: String
    let atStart: Bool
    let trim: Bool

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let answer = TextChecks.trimmed(subject, trim)
        let wanted = affix.scalars
        let ok = atStart ? PythonText.hasPrefix(answer, wanted) : PythonText.hasSuffix(answer, wanted)
        let shown = atStart ? Excerpt.head(answer) : Excerpt.tail(answer)
        return .judge(
            ok,
            "\(ok ? "answer" : "expected answer to") \(atStart ? "start" : "end")\(ok ? "s" : "") with "
                + "\(Excerpt.head(affix))\(ok ? "" : "; it \(atStart ? "starts" : "ends"): \(shown)")"
        )
    }
}
