import ChatEvalCore

/// Reads a check's arguments with precise errors: every accessor names the key path, what was
/// found and what was expected. Unknown keys are reported by the catalogue before the factory runs.
struct ArgumentReader {
    let checkType: String
    let arguments: CheckArgument.Map
    /// Path of this map from the outermost check (for nested checks).
    let path: [CheckDefinitionError.PathComponent]
    /// When true (validation before templating), strings still holding `{{…}}` placeholders are
    /// not compiled as regexes.
    let validatingTemplates: Bool

    func error(
        _ kind: CheckDefinitionError.Kind, _ key: String, _ problem: String, expected: String? = nil,
        at extra: [CheckDefinitionError.PathComponent] = []
    ) -> CheckDefinitionError {
        CheckDefinitionError(
            kind: kind, checkType: checkType, path: path + [.key(key)] + extra,
            problem: problem, expected: expected)
    }

    func has(_ key: String) -> Bool { arguments[key] != nil }

    func value(_ key: String) throws(CheckDefinitionError) -> CheckArgument {
        guard let value = arguments[key] else {
            throw error(.missingArgument, key, "is missing", expected: "a value for \(key)")
        }
        return value
    }

    // MARK: strings

    func string(_ key: String) throws(CheckDefinitionError) -> String {
        try Self.string(try value(key), expected: "a string") { (problem: String, expected: String) in
            error(.wrongType, key, problem, expected: expected)
        }
    }

    func optionalString(_ key: String) throws(CheckDefinitionError) -> String? {
        has(key) ? try string(key) : nil
    }

    /// A non-empty string.
    func nonEmptyString(_ key: String) throws(CheckDefinitionError) -> String {
        let s = try string(key)
        guard !s.isEmpty else { throw error(.invalidValue, key, "is empty", expected: "a non-empty string") }
        return s
    }

    /// One of `choices` (exact spelling), with a suggestion when close.
    func choice(_ key: String, _ choices: [String], default fallback: String? = nil) throws(CheckDefinitionError) -> String {
        guard has(key) || fallback == nil else { return fallback ?? "" }
        let s = try string(key)
        guard choices.contains(s) else {
            var e = error(.invalidValue, key, "is \"\(s)\"", expected: "one of " + choices.map { "\"\($0)\"" }.joined(separator: ", "))
            e.suggestions = suggestions(for: s, among: choices)
            throw e
        }
        return s
    }

    /// A string or a list of strings (scalars are not converted: a number is a wrong type).
    func stringList(_ key: String, allowSingle: Bool = true, nonEmpty: Bool = true) throws(CheckDefinitionError) -> [String] {
        let v = try value(key)
        let expected = allowSingle ? "a string or a list of strings" : "a list of strings"
        switch v {
        case .string(let s) where allowSingle:
            return [s]
        case .list(let items):
            var out: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let s) = item else {
                    throw error(.wrongType, key, "item is \(item.kindName)", expected: "a string", at: [.index(index)])
                }
                out.append(s)
            }
            if nonEmpty && out.isEmpty { throw error(.invalidValue, key, "is an empty list", expected: expected + " (at least one)") }
            return out
        default:
            throw error(.wrongType, key, "is \(v.kindName)", expected: expected)
        }
    }

    // MARK: numbers

    /// An integer (a whole number written as a float is accepted) in `minimum...maximum`.
    func integer(_ key: String, minimum: Int? = nil, maximum: Int? = nil) throws(CheckDefinitionError) -> Int {
        let v = try value(key)
        let expected: String
        switch (minimum, maximum) {
        case (let lo?, let hi?): expected = "an integer from \(lo) to \(hi)"
        case (let lo?, nil): expected = "an integer of \(lo) or more"
        case (nil, let hi?): expected = "an integer of at most \(hi)"
        case (nil, nil): expected = "an integer"
        }
        let n: Int
        switch v {
        case .integer(let i): n = i
        case .number(let d) where d.rounded() == d && abs(d) < 1e15: n = Int(d)
        default: throw error(.wrongType, key, "is \(v.kindName) (\(v.shortDescription))", expected: expected)
        }
        if let minimum, n < minimum {
            throw error(.invalidValue, key, n < 0 ? "is negative (\(n))" : "is \(n)", expected: expected)
        }
        if let maximum, n > maximum { throw error(.invalidValue, key, "is \(n)", expected: expected) }
        return n
    }

    func optionalInteger(_ key: String, minimum: Int? = nil, maximum: Int? = nil) throws(CheckDefinitionError) -> Int? {
        has(key) ? try integer(key, minimum: minimum, maximum: maximum) : nil
    }

    func number(_ key: String, minimum: Double? = nil, maximum: Double? = nil) throws(CheckDefinitionError) -> Double {
        let v = try value(key)
        var expected = "a number"
        if let minimum, let maximum {
            expected = "a number from \(DetailNumbers.decimal(minimum, places: 3)) to \(DetailNumbers.decimal(maximum, places: 3))"
        } else if let minimum {
            expected = "a number of \(DetailNumbers.decimal(minimum, places: 3)) or more"
        }
        let d: Double
        switch v {
        case .integer(let i): d = Double(i)
        case .number(let x): d = x
        default: throw error(.wrongType, key, "is \(v.kindName) (\(v.shortDescription))", expected: expected)
        }
        guard d.isFinite else { throw error(.invalidValue, key, "is not finite", expected: expected) }
        if let minimum, d < minimum { throw error(.invalidValue, key, d < 0 ? "is negative (\(d))" : "is \(d)", expected: expected) }
        if let maximum, d > maximum { throw error(.invalidValue, key, "is \(d)", expected: expected) }
        return d
    }

    func optionalNumber(_ key: String, minimum: Double? = nil, maximum: Double? = nil) throws(CheckDefinitionError) -> Double? {
        has(key) ? try number(key, minimum: minimum, maximum: maximum) : nil
    }

    func bool(_ key: String, default fallback: Bool) throws(CheckDefinitionError) -> Bool {
        guard let v = arguments[key] else { return fallback }
        guard case .bool(let b) = v else { throw error(.wrongType, key, "is \(v.kindName)", expected: "true or false") }
        return b
    }

    func map(_ key: String) throws(CheckDefinitionError) -> CheckArgument.Map {
        let v = try value(key)
        guard case .map(let m) = v else { throw error(.wrongType, key, "is \(v.kindName)", expected: "a map") }
        return m
    }

    // MARK: regexes

    /// Compiles `pattern` (the value of `key`, or the item at `index` of it); in validation mode
    /// a pattern with unresolved placeholders is accepted as is and nil is returned.
    func regex(_ pattern: String, key: String, index: Int? = nil, flags: RegexFlags = []) throws(CheckDefinitionError) -> PythonRegex? {
        if validatingTemplates && Placeholders.containsUnresolved(pattern) { return nil }
        do {
            return try PythonRegex(pattern, flags: flags)
        } catch {
            throw self.error(
                .invalidRegex, key,
                "is not a valid regex: \(error.message) at position \(error.offset) of \"\(Excerpt.clip(pattern, to: 60))\"",
                expected: "a Python `re` regex",
                at: index.map { [.index($0)] } ?? [])
        }
    }

    static func string(
        _ v: CheckArgument, expected: String,
        _ makeError: (String, String) -> CheckDefinitionError
    ) throws(CheckDefinitionError) -> String {
        guard case .string(let s) = v else { throw makeError("is \(v.kindName) (\(v.shortDescription))", expected) }
        return s
    }
}
