/// `combination:two_responses`: split by `******`, exactly two non-blank parts (blank parts only
/// first or last) that differ once stripped.
struct TwoResponses: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let parts = PythonText.split(value[...], separator: Array("******".unicodeScalars))
        var valid: [ArraySlice<Unicode.Scalar>] = []
        for (index, part) in parts.enumerated() {
            if PythonText.isBlank(part) {
                if index != 0 && index != parts.count - 1 {
                    return IFEvalResult(followed: false, detail: "response \(index + 1) between ****** separators is empty")
                }
            } else {
                valid.append(part)
            }
        }
        guard valid.count == 2 else {
            return IFEvalResult(followed: false, detail: "expected two responses separated by ******, found \(valid.count)")
        }
        let same = PythonText.strip(Array(valid[0])).elementsEqual(PythonText.strip(Array(valid[1])))
        return IFEvalResult(followed: !same, detail: same ? "the two responses are identical" : "two different responses")
    }
}
