import ChatEvalGrading
import Foundation

/// What the multi-turn instruction-following scores need from a check as written: its loose
/// reading (IFEval's loose accuracy) and a text that names the instruction the same way on every
/// turn that asks it (the forgetting rate follows an instruction from turn to turn).
extension CheckDefinition {
    /// The check with every IFEval instruction read loosely (`mode: loose`), in the check itself
    /// and in `all` / `any` nested in it; nil when nothing changes (no IFEval instruction read
    /// strictly). Negated instructions (`not-…`, `not`) keep their reading: loosening what must
    /// not be followed would make the check stricter, not looser.
    public var looseReading: CheckDefinition? {
        guard let arguments = Self.loosened(type: type, arguments) else { return nil }
        return CheckDefinition(type: type, arguments: arguments, line: line, column: column)
    }

    private static func loosened(type: String, _ arguments: CheckArgument.Map) -> CheckArgument.Map? {
        if CheckCatalogue.info(for: type)?.family == .ifeval {
            guard arguments["mode"] == nil || arguments["mode"] == .string("strict") else { return nil }
            return CheckArgument.Map(arguments.fields.filter { $0.key != "mode" } + [.init(key: "mode", value: .string("loose"))])
        }
        guard type == "all" || type == "any", case .list(let nested)? = arguments["checks"] else { return nil }
        var changed = false
        let loosenedNested = nested.map { item -> CheckArgument in
            guard case .map(let map) = item, case .string(let nestedType)? = map["type"],
                let loose = loosened(type: nestedType, CheckArgument.Map(map.fields.filter { $0.key != "type" }))
            else { return item }
            changed = true
            return .map(CheckArgument.Map([.init(key: "type", value: .string(nestedType))] + loose.fields))
        }
        guard changed else { return nil }
        return CheckArgument.Map(arguments.fields.map { $0.key == "checks" ? .init(key: "checks", value: .list(loosenedNested)) : $0 })
    }

    /// The check as one line of text, without `weight`, so that two turns that ask the same thing
    /// give the same text: a quote of turn `turn`'s own message (`{{turnN.user}}`) is written
    /// `{{this.user}}`, and the checks nested in `all` / `any` that quote a user message — echo
    /// guards, which name a different turn on every turn — are left out.
    public func instructionText(turn: Int) -> String {
        let own = "turn\(turn).user"
        func text(_ argument: CheckArgument) -> String {
            switch argument {
            case .string(let value): return "\"" + Self.normalisingOwnTurn(value, own) + "\""
            case .integer(let value): return String(value)
            case .number(let value): return String(value)
            case .bool(let value): return String(value)
            case .list(let items): return "[" + items.map(text).joined(separator: ", ") + "]"
            case .map(let map): return "{" + map.fields.map { "\($0.key): \(text($0.value))" }.joined(separator: ", ") + "}"
            }
        }
        var fields = arguments.fields.filter { $0.key != "weight" }
        if type == "all" || type == "any" {
            fields = fields.map { field in
                guard field.key == "checks", case .list(let nested) = field.value else { return field }
                return .init(key: field.key, value: .list(nested.filter { !Self.quotesAUserMessage($0) }))
            }
        }
        return fields.isEmpty ? type : type + " " + fields.map { "\($0.key): \(text($0.value))" }.joined(separator: ", ")
    }

    /// True when a string inside `argument` quotes a user message (`{{turnN.user}}`).
    private static func quotesAUserMessage(_ argument: CheckArgument) -> Bool {
        switch argument {
        case .string(let value): value.contains(/\{\{\s*turn[0-9]+\.user\s*\}\}/)
        case .list(let items): items.contains(where: quotesAUserMessage)
        case .map(let map): map.fields.contains { quotesAUserMessage($0.value) }
        default: false
        }
    }

    private static func normalisingOwnTurn(_ value: String, _ own: String) -> String {
        guard value.contains("{{") else { return value }
        var result = ""
        var rest = Substring(value)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            result += rest[..<open.lowerBound] + (name == own ? "{{this.user}}" : "{{" + name + "}}")
            rest = rest[close.upperBound...]
        }
        return result + rest
    }
}
