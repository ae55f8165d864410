/// Runs an IFEval instruction as the harness does: strict (the answer as is) or loose (eight
/// variants); a blank variant never follows.
struct IFEvalCheck: CheckEvaluator {
    let id: String
    let instruction: any IFEvalInstruction
    let loose: Bool

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let answer = subject.analysis.scalars
        let variants = loose ? Self.looseVariants(answer) : [answer]
        var firstDetail: String?
        for (index, variant) in variants.enumerated() {
            if PythonText.isBlank(variant) {
                if index == 0 { firstDetail = "blank answer: IFEval counts it as not following the instruction" }
                continue
            }
            do {
                let result = try instruction.check(variant)
                if result.followed {
                    return .pass(index == 0 ? result.detail : "loose variant \(index): \(result.detail)")
                }
                if firstDetail == nil { firstDetail = result.detail }
            } catch {
                return .failure(error: error.message, "\(id) could not be evaluated: \(error.message)")
            }
        }
        return .fail((firstDetail ?? "not followed") + (loose ? " (no loose variant follows either)" : ""))
    }

    /// IFEval's loose variants: the answer, without `*`, without its first line, last line, both,
    /// and those three without `*`.
    static func looseVariants(_ answer: Scalars) -> [Scalars] {
        let lines = PythonText.split(answer[...], separator: ["\n"])
        func join(_ parts: ArraySlice<ArraySlice<Unicode.Scalar>>) -> Scalars {
            var out = Scalars()
            for (k, part) in parts.enumerated() {
                if k > 0 { out.append("\n") }
                out.append(contentsOf: part)
            }
            return Array(PythonText.strip(out))
        }
        let withoutFirst = join(lines.dropFirst())
        let withoutLast = join(lines.dropLast())
        let withoutBoth = lines.count >= 2 ? join(lines.dropFirst().dropLast()) : []
        let noStars = { (s: Scalars) in s.filter { $0 != "*" } }
        return [
            answer, noStars(answer), withoutFirst, withoutLast, withoutBoth,
            noStars(withoutFirst), noStars(withoutLast), noStars(withoutBoth),
        ]
    }
}
