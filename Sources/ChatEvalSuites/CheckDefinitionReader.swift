import ChatEvalCore
import ChatEvalGrading
internal import Yams

/// Reads check definitions from YAML, in two spellings:
/// `- {type: contains, value: Paris, weight: 2}` or, for one argument named `value`, `- contains: Paris`.
struct CheckDefinitionReader {
    let reader: YAMLReader
    /// Bounds on one check's argument tree (guards against alias bombs and absurd nesting).
    static let maximumNodes = 10_000
    static let maximumDepth = 32

    func definitions(_ node: Node, _ what: String) -> [CheckDefinition] {
        guard let items = reader.sequence(node, what) else { return [] }
        return items.enumerated().compactMap { index, item in definition(item, "check \(index + 1) of \(what)") }
    }

    private func definition(_ node: Node, _ what: String) -> CheckDefinition? {
        guard case .mapping(let mapping) = node, !mapping.isEmpty else {
            reader.fail(
                .wrongType, at: node, "\(what) must be a mapping such as {type: contains, value: Paris}, found \(reader.kind(of: node))")
            return nil
        }
        var budget = Self.maximumNodes
        var type: String?
        var arguments: [CheckArgument.Map.Field] = []
        if let typeNode = mapping["type"] {
            type = reader.string(typeNode, "the type of \(what)")
            for (key, value) in mapping where key.string != "type" {
                // An argument that cannot be read has been reported; validating without it would
                // only add a misleading "missing argument".
                guard let name = key.string, let argument = argument(value, depth: 1, budget: &budget, what) else { return nil }
                arguments.append(.init(key: name, value: argument))
            }
        } else if mapping.count == 1, let (key, value) = mapping.first, let name = key.string {
            type = name
            guard let argument = argument(value, depth: 1, budget: &budget, what) else { return nil }
            if case .map(let map) = argument {
                arguments = map.fields
            } else if let hint = Self.shortFormHint(type: name, value: value) {
                reader.fail(
                    .invalidValue, at: node,
                    "\(what): '\(Self.clip(name)): \(Self.clip(value.string ?? "[…]"))' is not a form \(Self.clip(name)) takes", hint: hint)
                return nil
            } else {
                arguments = [.init(key: "value", value: argument)]
            }
        } else {
            reader.fail(
                .missingKey, at: node, "\(what) has no 'type'", hint: Self.longFormHint(mapping) ?? "write {type: NAME, ...} or NAME: VALUE"
            )
            return nil
        }
        guard let type else { return nil }
        let definition = CheckDefinition(
            type: type, arguments: CheckArgument.Map(arguments), line: node.mark?.line, column: node.mark?.column)
        do {
            try CheckCatalogue.validate(type: type, arguments: definition.arguments)
        } catch {
            report(error, in: node, what)
            return nil
        }
        return definition
    }

    /// What to write instead of `TYPE: VALUE` when TYPE is a known check that takes no `value`
    /// (`ttft: 2`, `is-json: true`); nil when the short form fits or the type is unknown.
    static func shortFormHint(type: String, value: Node) -> String? {
        let negated = type.hasPrefix(CheckCatalogue.negationPrefix)
        let base = negated ? String(type.dropFirst(CheckCatalogue.negationPrefix.count)) : type
        guard let info = CheckCatalogue.info(for: base) ?? (negated ? nil : CheckCatalogue.info(for: type)),
            !info.arguments.contains(where: { $0.name == "value" })
        else { return nil }
        let written = clip(value.string ?? "…")
        let required = info.arguments.filter(\.required)
        if case .scalar(let scalar) = value, scalar.style == .plain, ["true", "false", "yes", "no"].contains(scalar.string.lowercased()) {
            let wanted = ["true", "yes"].contains(scalar.string.lowercased())
            let name = wanted ? type : (negated ? base : CheckCatalogue.negationPrefix + type)
            if required.isEmpty { return "write '- \(name): {}' (or {type: \(name)})" }
        }
        if required.count == 1, let only = required.first {
            return "write {type: \(type), \(only.name): \(written)} (\(only.name): \(only.valueType))"
        }
        if required.isEmpty {
            let optional = info.arguments.map(\.name)
            return "write '- \(type): {}' (or {type: \(type)})"
                + (optional.isEmpty ? "" : "; its arguments, all optional: \(optional.joined(separator: ", "))")
        }
        return "write {type: \(type), " + required.map { "\($0.name): …" }.joined(separator: ", ") + "}"
    }

    /// The long form of a short form given more keys (`{regex: "^P", flags: i}` →
    /// `{type: regex, value: "^P", flags: i}`): the one key that names a check becomes the type and
    /// its value `value`; nil when no key, or more than one, names a check.
    static func longFormHint(_ mapping: Node.Mapping) -> String? {
        let named = mapping.filter { key, _ in
            guard let name = key.string else { return false }
            let base = name.hasPrefix(CheckCatalogue.negationPrefix) ? String(name.dropFirst(CheckCatalogue.negationPrefix.count)) : name
            return CheckCatalogue.info(for: base) != nil
        }
        guard named.count == 1, let (typeKey, typeValue) = named.first, let type = typeKey.string else { return nil }
        func shown(_ node: Node) -> String {
            guard case .scalar(let scalar) = node else { return "…" }
            return scalar.style == .plain ? clip(scalar.string) : "\"" + clip(scalar.string) + "\""
        }
        let others = mapping.compactMap { key, value in key.string == type ? nil : key.string.map { "\($0): \(shown(value))" } }
        return "a short form takes one key; with more, write the long form: "
            + "{" + (["type: \(type)", "value: \(shown(typeValue))"] + others).joined(separator: ", ") + "}"
    }

    private static func clip(_ text: String) -> String { text.count > 40 ? String(text.prefix(39)) + "…" : text }

    /// Reports a definition error at the node its path names (or the check itself).
    private func report(_ error: CheckDefinitionError, in node: Node, _ what: String) {
        var target = node
        if error.kind == .unknownType, case .mapping(let mapping) = node {
            target = mapping["type"] ?? mapping.keys.first ?? node
        }
        for component in error.path {
            switch (component, target) {
            case (.key(let key), .mapping(let mapping)):
                if error.kind == .unknownArgument, component == error.path.last,
                    let keyNode = mapping.keys.first(where: { $0.string == key })
                {
                    target = keyNode
                } else if let value = mapping[key] {
                    target = value
                }
            case (.index(let index), .sequence(let sequence)) where index < sequence.count:
                target = sequence[index]
            default: break
            }
        }
        var hint = error.expected.map { "expected \($0)" }
        if let first = error.suggestions.first { hint = "did you mean '\(first)'?" }
        if let written = error.hint { hint = written }
        let argument = error.path.isEmpty ? "" : "argument '\(error.pathDescription)' "
        reader.fail(
            error.kind == .unknownType || error.kind == .unknownArgument ? .unknownKey : .invalidValue,
            at: target, "\(what): \(argument)\(error.problem)", hint: hint)
    }

    /// The YAML value as a check argument: plain scalars become numbers or booleans when they
    /// read as such, quoted ones stay text.
    private func argument(_ node: Node, depth: Int, budget: inout Int, _ what: String) -> CheckArgument? {
        budget -= 1
        guard budget >= 0, depth <= Self.maximumDepth else {
            if budget == -1 || depth == Self.maximumDepth + 1 {
                reader.fail(
                    .tooComplex, at: node,
                    "\(what) is too large or too deeply nested (limits: \(Self.maximumNodes) values, \(Self.maximumDepth) levels)")
            }
            return nil
        }
        switch node {
        case .scalar(let scalar):
            guard scalar.style == .plain else { return .string(scalar.string) }
            switch NumberLiteral.parse(scalar.string) {
            case .success(.integer(let integer))?: return .integer(integer)
            case .success(.decimal(let number))?: return .number(number)
            // Too large for an integer: a number the check's own range check refuses by name.
            case .failure?: return .number(Double(scalar.string) ?? .infinity)
            case nil: break
            }
            switch scalar.string {
            case "true", "True", "TRUE", "yes", "on": return .bool(true)
            case "false", "False", "FALSE", "no", "off": return .bool(false)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            var items: [CheckArgument] = []
            for item in sequence {
                guard let value = argument(item, depth: depth + 1, budget: &budget, what) else { return nil }
                items.append(value)
            }
            return .list(items)
        case .mapping(let mapping):
            var fields: [CheckArgument.Map.Field] = []
            for (key, value) in mapping {
                guard let name = key.string else {
                    reader.fail(.wrongType, at: key, "keys in \(what) must be plain names")
                    return nil
                }
                guard let item = argument(value, depth: depth + 1, budget: &budget, what) else { return nil }
                fields.append(.init(key: name, value: item))
            }
            return .map(CheckArgument.Map(fields))
        case .alias:
            // Yams replaces aliases with the nodes they name while composing; expanded values
            // count against the limits above, so an alias bomb is refused there.
            reader.fail(.wrongType, at: node, "\(what) uses an alias that could not be resolved")
            return nil
        }
    }
}
