import ChatEvalCore

/// Every check type, and the one way to build checks: from a type name and an argument map,
/// validated at construction (regexes compiled, limits checked), so evaluation cannot fail on a
/// bad definition.
///
/// Any type can be negated with a `not-` prefix (`not-contains`, `not-regex`,
/// `not-keywords:existence`). Every check takes `weight` (number ≥ 0, default 1: its share of the
/// turn's score); checks with a score also take `threshold` (0...1: pass when score ≥ threshold).
public enum CheckCatalogue {
    /// Prefix that negates any check type.
    public static let negationPrefix = "not-"

    static let factories: [CheckFactory] =
        TextChecks.factories + JSONChecks.factories + IFEvalChecks.factories
        + PerformanceChecks.factories + Combinators.factories

    private static let byName: [String: CheckFactory] = Dictionary(
        factories.map { ($0.info.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// Every base type (without `not-` variants), in catalogue order.
    public static var allTypes: [CheckTypeInfo] { factories.map(\.info) }

    /// Builds a check. Throws when the type is unknown (with the nearest names), an argument is
    /// unknown (with suggestions), missing, of the wrong type or out of range, or a regex is invalid.
    public static func make(type: String, arguments: CheckArgument.Map = [:]) throws(CheckDefinitionError) -> Check {
        try build(type: type, arguments: arguments, path: [], validatingTemplates: false)
    }

    /// Validates a definition whose strings may still contain `{{…}}` placeholders (before
    /// templating): the same checks as `make`, except that regexes with placeholders are not compiled.
    public static func validate(type: String, arguments: CheckArgument.Map = [:]) throws(CheckDefinitionError) {
        _ = try build(type: type, arguments: arguments, path: [], validatingTemplates: true)
    }

    /// Builds a check from one map holding `type` and the arguments (the form nested checks take).
    public static func make(definition: CheckArgument.Map) throws(CheckDefinitionError) -> Check {
        try build(definition: .map(definition), path: [], validatingTemplates: false, checkType: "check")
    }

    /// Looks up a base type by name.
    public static func info(for type: String) -> CheckTypeInfo? { byName[type]?.info }

    static func build(
        definition: CheckArgument, path: [CheckDefinitionError.PathComponent],
        validatingTemplates: Bool, checkType: String
    ) throws(CheckDefinitionError) -> Check {
        guard case .map(let map) = definition else {
            throw CheckDefinitionError(
                kind: .wrongType, checkType: checkType, path: path,
                problem: "is \(definition.kindName)", expected: "a map with a \"type\" key and the check's arguments")
        }
        guard let typeValue = map["type"] else {
            throw CheckDefinitionError(
                kind: .missingArgument, checkType: checkType, path: path + [.key("type")],
                problem: "is missing", expected: "the nested check's type name")
        }
        guard case .string(let type) = typeValue else {
            throw CheckDefinitionError(
                kind: .wrongType, checkType: checkType, path: path + [.key("type")],
                problem: "is \(typeValue.kindName)", expected: "a check type name")
        }
        let rest = CheckArgument.Map(map.fields.filter { $0.key != "type" })
        return try build(type: type, arguments: rest, path: path, validatingTemplates: validatingTemplates)
    }

    static func build(
        type: String, arguments: CheckArgument.Map, path: [CheckDefinitionError.PathComponent],
        validatingTemplates: Bool
    ) throws(CheckDefinitionError) -> Check {
        let (factory, negated) = try resolve(type, path: path)
        let info = factory.info
        let ownNames = info.arguments.map(\.name)
        var allowed = ownNames + ["weight"]
        let genericThreshold = info.hasScore && !ownNames.contains("threshold")
        if genericThreshold { allowed.append("threshold") }
        for key in arguments.keys where !allowed.contains(key) {
            var hint = allowed.isEmpty ? "no arguments" : "one of " + allowed.joined(separator: ", ")
            if key == "threshold" { hint += " (threshold applies only to checks with a score)" }
            throw CheckDefinitionError(
                kind: .unknownArgument, checkType: type, path: path + [.key(key)],
                problem: "is not an argument of \(info.name)", expected: hint,
                suggestions: suggestions(for: key, among: allowed))
        }
        var seen = Set<String>()
        for key in arguments.keys where !seen.insert(key).inserted {
            throw CheckDefinitionError(
                kind: .invalidValue, checkType: type, path: path + [.key(key)],
                problem: "is given twice", expected: "each argument once")
        }
        for argument in info.arguments where argument.required && arguments[argument.name] == nil {
            throw CheckDefinitionError(
                kind: .missingArgument, checkType: type, path: path + [.key(argument.name)],
                problem: "is missing", expected: "\(argument.valueType): \(argument.summary)")
        }
        let reader = ArgumentReader(checkType: type, arguments: arguments, path: path, validatingTemplates: validatingTemplates)
        let weight = try reader.optionalNumber("weight", minimum: 0) ?? 1
        let threshold = genericThreshold ? try reader.optionalNumber("threshold", minimum: 0, maximum: 1) : nil
        let evaluator = try factory.build(reader)
        return Check(type: type, weight: weight, threshold: threshold, isNegated: negated, evaluator: evaluator)
    }

    private static func resolve(_ type: String, path: [CheckDefinitionError.PathComponent]) throws(CheckDefinitionError) -> (
        CheckFactory, Bool
    ) {
        if let factory = byName[type] { return (factory, false) }
        if type.hasPrefix(negationPrefix), let factory = byName[String(type.dropFirst(negationPrefix.count))] {
            return (factory, true)
        }
        if let hint = ForeignCheckNames.hint(for: type) {
            throw CheckDefinitionError(
                kind: .unknownType, checkType: type, path: path, problem: "unknown check type \(Excerpt.head(type, width: 60))", hint: hint)
        }
        let names = factories.map(\.info.name)
        var near: [String]
        if type.hasPrefix(negationPrefix) {
            near = suggestions(for: String(type.dropFirst(negationPrefix.count)), among: names).map { negationPrefix + $0 }
        } else {
            near = suggestions(for: type, among: names)
        }
        if near.isEmpty { near = suggestions(for: type, among: names.map { negationPrefix + $0 }) }
        throw CheckDefinitionError(
            kind: .unknownType, checkType: type, path: path, problem: "unknown check type \(Excerpt.head(type, width: 60))",
            expected: "one of the \(names.count) check types of the catalogue (suites/README.md), optionally prefixed with \"not-\"",
            suggestions: near)
    }
}
