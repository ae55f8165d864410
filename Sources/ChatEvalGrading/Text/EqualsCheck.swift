/// `equals`: exact, code point for code point (optionally after trimming the answer).
struct EqualsCheck: CheckEvaluator {
    let expected: String
    let trim: Bool

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let answer = TextChecks.trimmed(subject, trim)
        let wanted = expected.scalars
        if answer.elementsEqual(wanted) { return .pass("answer equals \(Excerpt.head(expected))") }
        let common = zip(answer, wanted).prefix { $0 == $1 }.count
        let window = Array(answer[(answer.startIndex + max(0, common - 40))..<min(answer.endIndex, answer.startIndex + common + 40)])
        let at = min(common, 40)
        return .fail(
            "expected exactly \(Excerpt.head(expected)), found \(Excerpt.head(answer)); "
                + "first difference at character \(common): \(Excerpt.around(window, at..<at))")
    }
}
