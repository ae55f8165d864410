/// `detectable_format:json_format`: after IFEval's fence stripping, `json.loads` succeeds.
struct JSONFormat: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let text = JSONChecks.stripFences(value)
        switch PythonJSON.parse(text) {
        case .success(let v): return IFEvalResult(followed: true, detail: "valid JSON \(v.typeName)")
        case .failure(let p):
            let at = min(p.offset, text.count)
            return IFEvalResult(
                followed: false, detail: "expected JSON; \(p.message) at character \(at): \(Excerpt.around(Array(text), at..<at))")
        }
    }
}
