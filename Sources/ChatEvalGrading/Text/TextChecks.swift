/// Checks on the answer's text, with promptfoo's names where they overlap.
///
/// Text is compared by Unicode code points, exactly (no normalization): `"é"` precomposed and
/// `"e\u{301}"` differ. Case-insensitive variants compare simple lowercase mappings.
enum TextChecks {
    static let factories: [CheckFactory] = [
        CheckFactory(
            "equals", .text, "The answer is exactly the value.",
            arguments: [valueArgument("string"), trimArgument]
        ) { r throws(CheckDefinitionError) in
            EqualsCheck(expected: try r.string("value"), trim: try r.bool("trim", default: false))
        },
        containsFactory("contains", caseInsensitive: false, mode: nil),
        containsFactory("icontains", caseInsensitive: true, mode: nil),
        containsFactory("contains-all", caseInsensitive: false, mode: .all),
        containsFactory("contains-any", caseInsensitive: false, mode: .any),
        containsFactory("icontains-all", caseInsensitive: true, mode: .all),
        containsFactory("icontains-any", caseInsensitive: true, mode: .any),
        CheckFactory(
            "starts-with", .text, "The answer starts with the value.",
            arguments: [valueArgument("string"), trimArgument]
        ) { r throws(CheckDefinitionError) in
            AffixCheck(affix: try r.string("value"), atStart: true, trim: try r.bool("trim", default: false))
        },
        CheckFactory(
            "ends-with", .text, "The answer ends with the value.",
            arguments: [valueArgument("string"), trimArgument]
        ) { r throws(CheckDefinitionError) in
            AffixCheck(affix: try r.string("value"), atStart: false, trim: try r.bool("trim", default: false))
        },
        CheckFactory(
            "regex", .text, "The regex matches somewhere in the answer (Python `re` syntax).",
            arguments: [
                valueArgument("string (regex)"),
                ArgumentInfo(
                    "flags", "string of i, m, s", required: false,
                    "i: ignore case, m: ^ and $ match at line breaks, s: . matches newlines."),
            ]
        ) { r throws(CheckDefinitionError) in
            let pattern = try r.string("value")
            let flags = try regexFlags(r)
            return RegexCheck(pattern: pattern, regex: try r.regex(pattern, key: "value", flags: flags))
        },
        CheckFactory(
            "one-of", .text, "The answer, trimmed, equals one of the values.",
            arguments: [ArgumentInfo("value", "list of strings", required: true, "The accepted answers.")]
        ) { r throws(CheckDefinitionError) in
            OneOfCheck(choices: try r.stringList("value", allowSingle: false))
        },
        CheckFactory(
            "length", .text, "The answer's length, in the unit, is within min...max.",
            arguments: [
                ArgumentInfo(
                    "unit", "characters | words | sentences | lines | paragraphs", required: false,
                    "What is counted (default characters). See LengthCheck."),
                ArgumentInfo("min", "integer ≥ 0", required: false, "Fewest allowed."),
                ArgumentInfo("max", "integer ≥ 0", required: false, "Most allowed."),
            ]
        ) { r throws(CheckDefinitionError) in
            let unit =
                LengthCheck.Unit(rawValue: try r.choice("unit", LengthCheck.Unit.allCases.map(\.rawValue), default: "characters"))
                ?? .characters
            let min = try r.optionalInteger("min", minimum: 0)
            let max = try r.optionalInteger("max", minimum: 0)
            guard min != nil || max != nil else {
                throw r.error(.missingArgument, "max", "is missing (and so is min)", expected: "min, max or both")
            }
            if let min, let max, min > max {
                throw r.error(.invalidValue, "min", "is \(min), above max (\(max))", expected: "min ≤ max")
            }
            return LengthCheck(unit: unit, min: min, max: max)
        },
        CheckFactory(
            "levenshtein", .text, "The answer is within `threshold` edits of the value; score = similarity.",
            arguments: [
                valueArgument("string (reference)"),
                ArgumentInfo("threshold", "integer in 0...1000000000", required: false, "Most edits allowed (default 5), as in promptfoo."),
                ArgumentInfo("min-similarity", "number in 0...1", required: false, "Alternatively: pass when similarity ≥ this."),
            ],
            hasScore: true
        ) { r throws(CheckDefinitionError) in
            LevenshteinCheck(
                reference: try r.string("value"),
                maxDistance: try r.optionalInteger("threshold", minimum: 0, maximum: LevenshteinCheck.maximumThreshold)
                    ?? (r.has("min-similarity") ? nil : 5),
                minSimilarity: try r.optionalNumber("min-similarity", minimum: 0, maximum: 1))
        },
        CheckFactory(
            "refusal", .text, "The answer is a refusal (empty, or contains a refusal phrase; see RefusalCheck).",
            arguments: [ArgumentInfo("phrases", "list of strings", required: false, "Extra refusal phrases (case-insensitive).")]
        ) { r throws(CheckDefinitionError) in
            let extra = r.has("phrases") ? try r.stringList("phrases", allowSingle: false) : []
            do throws(RegexSyntaxError) {
                return try RefusalCheck(extraPhrases: extra)
            } catch {
                throw r.error(.invalidValue, "phrases", "cannot be searched: \(error.message)", expected: "fewer or shorter phrases")
            }
        },
    ]

    static func valueArgument(_ type: String) -> ArgumentInfo {
        ArgumentInfo("value", type, required: true, "The expected text.")
    }

    static let trimArgument = ArgumentInfo(
        "trim", "boolean", required: false,
        "Ignore whitespace at both ends of the answer (default false).")

    static func containsFactory(_ name: String, caseInsensitive: Bool, mode: ContainsCheck.Mode?) -> CheckFactory {
        let what = caseInsensitive ? " (ignoring case)" : ""
        let summary =
            switch mode {
            case nil: "The answer contains the value\(what); with a list, every item."
            case .all: "The answer contains every value\(what)."
            case .any: "The answer contains at least one of the values\(what)."
            }
        let valueType = mode == nil ? "string or list of strings" : "list of strings"
        return CheckFactory(name, .text, summary, arguments: [valueArgument(valueType)]) { r throws(CheckDefinitionError) in
            let needles = try r.stringList("value", allowSingle: true)
            if needles.contains("") { throw r.error(.invalidValue, "value", "contains an empty string", expected: "non-empty strings") }
            return ContainsCheck(needles: needles, mode: mode ?? .all, caseInsensitive: caseInsensitive)
        }
    }

    static func regexFlags(_ r: ArgumentReader) throws(CheckDefinitionError) -> RegexFlags {
        guard let text = try r.optionalString("flags") else { return [] }
        var flags: RegexFlags = []
        for c in text {
            switch c {
            case "i": flags.insert(.ignoreCase)
            case "m": flags.insert(.multiline)
            case "s": flags.insert(.dotAll)
            default: throw r.error(.invalidValue, "flags", "has \"\(c)\"", expected: "letters among i, m, s")
            }
        }
        return flags
    }
}

extension PCRE2Error {
    /// The `error` of a verdict this failure decides: `regex exceeded its match limit`…
    var verdictError: String { limitName.map { "regex exceeded its \($0)" } ?? "regex search failed" }
}

extension TextChecks {
    /// Whitespace-trimmed code points of the answer (Python's whitespace set).
    static func trimmed(_ subject: GradingSubject, _ trim: Bool) -> ArraySlice<Unicode.Scalar> {
        trim ? PythonText.strip(subject.analysis.scalars) : subject.analysis.scalars[...]
    }
}
