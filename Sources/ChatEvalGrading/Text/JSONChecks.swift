import ChatEvalCore

/// JSON checks: `is-json` (the answer parses) and `json` (it parses and has required paths with
/// given value types).
///
/// Parsing follows Python's `json.loads` (what IFEval uses): any JSON value at the top level,
/// `NaN`, `Infinity` and `-Infinity` accepted, control characters inside strings rejected,
/// whitespace limited to space, tab, CR and LF, nothing but whitespace after the value. Nesting
/// deeper than 512 levels is rejected (Python would raise RecursionError).
enum JSONChecks {
    static let allowFencesArgument = ArgumentInfo(
        "allow-fences", "boolean", required: false,
        "Accept a ```json … ``` fenced block (fences stripped as IFEval does; default false).")

    static let factories: [CheckFactory] = [
        CheckFactory(
            "is-json", .json, "The answer (trimmed) is valid JSON.",
            arguments: [allowFencesArgument]
        ) { r throws(CheckDefinitionError) in
            JSONCheck(requirements: [], allowFences: try r.bool("allow-fences", default: false), rootType: nil)
        },
        CheckFactory(
            "json", .json,
            "The answer is valid JSON with the required paths, each of the given type.",
            arguments: [
                ArgumentInfo(
                    "required", "map from path to type", required: false,
                    "Paths like `a.b`, `items[0].id`, `items[*].id`; types: string, number, integer, boolean, null, array, object, any."),
                ArgumentInfo("root", "object | array | any", required: false, "Type of the top-level value (default any)."),
                allowFencesArgument,
            ]
        ) { r throws(CheckDefinitionError) in
            var requirements: [JSONRequirement] = []
            if r.has("required") {
                for field in try r.map("required") {
                    let path = try JSONPath(field.key) { (problem: String) in
                        r.error(.invalidValue, "required", problem, expected: "a path like a.b[0].c", at: [.key(field.key)])
                    }
                    let typeName = try ArgumentReader.string(field.value, expected: "a type name") { (problem: String, expected: String) in
                        r.error(.wrongType, "required", problem, expected: expected, at: [.key(field.key)])
                    }
                    guard let type = JSONType(rawValue: typeName) else {
                        var e = r.error(
                            .invalidValue, "required", "names type \"\(typeName)\"",
                            expected: JSONType.allCases.map(\.rawValue).joined(separator: ", "), at: [.key(field.key)])
                        e.suggestions = suggestions(for: typeName, among: JSONType.allCases.map(\.rawValue))
                        throw e
                    }
                    requirements.append(JSONRequirement(path: path, type: type))
                }
            }
            let root = try r.choice("root", ["object", "array", "any"], default: "any")
            return JSONCheck(
                requirements: requirements, allowFences: try r.bool("allow-fences", default: false),
                rootType: root == "any" ? nil : JSONType(rawValue: root))
        },
    ]

    /// IFEval's fence stripping: strip, remove one of the ```json/```Json/```JSON prefixes and ```
    /// in that order, a trailing ```, and strip again.
    static func stripFences(_ s: Scalars) -> ArraySlice<Unicode.Scalar> {
        var t = PythonText.strip(s)
        for prefix in ["```json", "```Json", "```JSON", "```"] {
            let p = prefix.scalars
            if PythonText.hasPrefix(t, p) { t = t.dropFirst(p.count) }
        }
        let fence = "```".scalars
        if PythonText.hasSuffix(t, fence) { t = t.dropLast(fence.count) }
        return PythonText.strip(t, where: PythonText.isSpace)
    }
}
