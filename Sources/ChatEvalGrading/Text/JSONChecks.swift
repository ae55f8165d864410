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

struct JSONRequirement: Sendable {
    let path: JSONPath
    let type: JSONType
}

struct JSONCheck: CheckEvaluator {
    let requirements: [JSONRequirement]
    let allowFences: Bool
    let rootType: JSONType?

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let text = allowFences ? JSONChecks.stripFences(subject.analysis.scalars) : PythonText.strip(subject.analysis.scalars)
        let value: ParsedJSON
        switch PythonJSON.parse(text) {
        case .failure(let problem):
            let at = Swift.min(problem.offset, text.count)
            return .fail("expected valid JSON; \(problem.message) at character \(at): \(Excerpt.around(Array(text), at..<at))")
        case .success(let v): value = v
        }
        if let rootType, !rootType.accepts(value) {
            return .fail("expected a JSON \(rootType.rawValue) at the top level, found \(value.typeName): \(Excerpt.head(subject.answer))")
        }
        for requirement in requirements {
            switch requirement.path.resolve(value) {
            case .failure(let why):
                return .fail("expected \(requirement.path) (\(requirement.type.rawValue)); \(why): \(Excerpt.head(String(scalars: text)))")
            case .success(let values):
                if let wrong = values.first(where: { !requirement.type.accepts($0) }) {
                    return .fail(
                        "expected \(requirement.path) to be \(requirement.type.rawValue), found \(wrong.typeName): "
                            + "\(Excerpt.head(String(scalars: text)))"
                    )
                }
            }
        }
        let paths = requirements.isEmpty ? "" : " with \(requirements.count) required path\(requirements.count == 1 ? "" : "s")"
        return .pass("valid JSON \(value.typeName)\(paths): \(Excerpt.head(String(scalars: text)))")
    }
}
