import ChatEvalCore
internal import Yams

/// Reads typed values out of a composed YAML document and collects every problem with its
/// position, so that validation reports all errors of a file at once.
final class YAMLReader {
    let file: String
    private(set) var errors: [SuiteError] = []
    private(set) var warnings: [SuiteError] = []

    init(file: String) {
        self.file = file
    }

    /// Records an error; the same error at the same place is recorded once (a conversation read
    /// once per suite variant reports its problems once).
    func fail(_ code: SuiteError.Code, at node: Node?, _ message: String, hint: String? = nil) {
        let error = SuiteError(code, file: file, line: node?.mark?.line, column: node?.mark?.column, message, hint: hint)
        if !errors.contains(error) { errors.append(error) }
    }

    /// Records a warning at `line`/`column` (the suite still loads).
    func warn(line: Int?, column: Int?, _ message: String, hint: String? = nil) {
        var warning = SuiteError(.suspicious, file: file, line: line, column: column, message, hint: hint)
        warning.severity = .warning
        if !warnings.contains(warning) { warnings.append(warning) }
    }

    /// The entries of a mapping by key, after reporting keys not in `allowed` (with suggestions).
    /// nil (and an error) when the node is not a mapping.
    func mapping(_ node: Node, _ what: String, allowed: [String]) -> [String: Node]? {
        guard case .mapping(let mapping) = node else {
            fail(.wrongType, at: node, "\(what) must be a mapping of keys to values, found \(kind(of: node))")
            return nil
        }
        var entries: [String: Node] = [:]
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                fail(.wrongType, at: key, "keys in \(what) must be plain names")
                continue
            }
            guard allowed.contains(scalar.string) else {
                let near = suggestions(for: scalar.string, among: allowed)
                fail(
                    .unknownKey, at: key, "unknown key '\(scalar.string)' in \(what)",
                    hint: near.isEmpty ? "allowed keys: \(allowed.joined(separator: ", "))" : "did you mean '\(near[0])'?")
                continue
            }
            entries[scalar.string] = value
        }
        return entries
    }

    func sequence(_ node: Node, _ what: String) -> [Node]? {
        guard case .sequence(let sequence) = node else {
            fail(.wrongType, at: node, "\(what) must be a list, found \(kind(of: node))")
            return nil
        }
        return Array(sequence)
    }

    /// Any non-null scalar as text (YAML's `42` or `yes` are text where text is expected).
    func string(_ node: Node, _ what: String) -> String? {
        guard case .scalar(let scalar) = node, !isNull(scalar) else {
            fail(.wrongType, at: node, "\(what) must be text, found \(kind(of: node))")
            return nil
        }
        return scalar.string
    }

    /// A whole number (`NumberLiteral`'s grammar, so `1e3` is 1000) within the bounds given.
    func integer(_ node: Node, _ what: String, minimum: Int? = nil, maximum: Int? = nil) -> Int? {
        guard let number = numberLiteral(node, what, expected: "a whole number") else { return nil }
        guard let value = number.integerValue else {
            fail(.wrongType, at: node, "\(what) must be a whole number, found \(kind(of: node))")
            return nil
        }
        if let minimum, value < minimum {
            fail(.invalidValue, at: node, "\(what) must be at least \(minimum), found \(value)")
            return nil
        }
        if let maximum, value > maximum {
            fail(.invalidValue, at: node, "\(what) must be at most \(maximum), found \(value)")
            return nil
        }
        return value
    }

    /// A finite number (`NumberLiteral`'s grammar).
    func number(_ node: Node, _ what: String) -> Double? {
        numberLiteral(node, what, expected: "a number")?.doubleValue
    }

    private func numberLiteral(_ node: Node, _ what: String, expected: String) -> NumberLiteral? {
        guard case .scalar(let scalar) = node, scalar.style == .plain, let parsed = NumberLiteral.parse(scalar.string) else {
            fail(
                .wrongType, at: node, "\(what) must be \(expected), found \(kind(of: node))",
                hint: "write decimal digits, such as 42, 0.5 or 1e3")
            return nil
        }
        switch parsed {
        case .success(let number): return number
        case .failure:
            fail(.invalidValue, at: node, "\(what) is too large: \(scalar.string.prefix(40))")
            return nil
        }
    }

    func boolean(_ node: Node, _ what: String) -> Bool? {
        guard case .scalar(let scalar) = node, scalar.style == .plain else {
            fail(.wrongType, at: node, "\(what) must be true or false, found \(kind(of: node))")
            return nil
        }
        switch scalar.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            fail(.wrongType, at: node, "\(what) must be true or false, found \(kind(of: node))")
            return nil
        }
    }

    /// One string or a list of strings.
    func strings(_ node: Node, _ what: String) -> [String]? {
        if case .scalar = node { return string(node, what).map { [$0] } }
        guard let items = sequence(node, what) else { return nil }
        let values = items.compactMap { string($0, "each item of \(what)") }
        return values.count == items.count ? values : nil
    }

    /// A mapping of names to text, e.g. `vars`.
    func stringMap(_ node: Node, _ what: String) -> [String: String]? {
        guard case .mapping(let mapping) = node else {
            fail(.wrongType, at: node, "\(what) must be a mapping of names to text, found \(kind(of: node))")
            return nil
        }
        var values: [String: String] = [:]
        for (key, value) in mapping {
            guard let name = string(key, "a name in \(what)"), let text = string(value, "\(what).\(key.string ?? "?")") else { continue }
            values[name] = text
        }
        return values
    }

    private func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    func kind(of node: Node) -> String {
        switch node {
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        case .scalar(let scalar): isNull(scalar) ? "nothing (null)" : "'\(scalar.string.prefix(40))'"
        }
    }

}
