import ChatEvalCore
import ChatEvalGrading
import Synchronization
internal import Yams

/// A check as written in a suite: its type and arguments, validated when the suite is loaded.
///
/// String arguments may quote earlier turns or variables (`{{turn1.answer}}`, `{{vars.city}}`);
/// they are filled in when the turn is graded, then the check is built.
public struct CheckDefinition: Sendable, Hashable {
    public var type: String { didSet { built = BuiltCheck() } }
    public var arguments: CheckArgument.Map { didSet { built = BuiltCheck() } }
    /// Where the check is written (1-based), for messages.
    public var line: Int?
    public var column: Int?
    /// What `resolved` learnt of this definition, shared by its copies (not part of its identity).
    private var built = BuiltCheck()

    public init(type: String, arguments: CheckArgument.Map, line: Int? = nil, column: Int? = nil) {
        self.type = type
        self.arguments = arguments
        self.line = line
        self.column = column
    }

    /// The same check without where it is written.
    public var unlocated: CheckDefinition {
        var check = self
        (check.line, check.column) = (nil, nil)
        return check
    }

    /// The `weight` argument (default 1), as the built check would have it.
    public var weight: Double {
        switch arguments["weight"] {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: 1
        }
    }

    /// The check with placeholders filled in from `lookup`. A definition without placeholders
    /// builds the same check every time, so it is built once per process and reused (a regex is
    /// translated and compiled once per run, not once per turn and repetition).
    ///
    /// The definition itself keeps what it learnt (whether it holds placeholders, the check it
    /// built), so grading a turn neither searches its arguments nor hashes them again: that was
    /// a tenth of grading's time.
    public func resolved(_ lookup: (String) -> String?) throws(CheckDefinitionError) -> Check {
        switch built.state.withLock({ $0 }) {
        case .built(let check): return check
        case .holdsPlaceholders:
            return try CheckCatalogue.make(type: type, arguments: Self.substitute(arguments, lookup, type: type, path: []))
        case .unknown:
            guard Self.holdsPlaceholder(arguments) else {
                let check = try builtWithoutPlaceholders()
                built.state.withLock { $0 = .built(check) }
                return check
            }
            built.state.withLock { $0 = .holdsPlaceholders }
            return try resolved(lookup)
        }
    }

    /// The check of a definition without placeholders, built once per process for all equal definitions.
    private func builtWithoutPlaceholders() throws(CheckDefinitionError) -> Check {
        if let built = Self.builtOnce.withLock({ $0[self] }) { return built }
        let built = try CheckCatalogue.make(type: type, arguments: arguments)
        Self.builtOnce.withLock { cache in
            // Bounded: a run's suites hold a few hundred checks; a fuzzer makes endless new ones.
            if cache.count >= Self.builtOnceCapacity { cache.removeAll(keepingCapacity: true) }
            cache[self] = built
        }
        return built
    }

    public static func == (lhs: CheckDefinition, rhs: CheckDefinition) -> Bool {
        lhs.type == rhs.type && lhs.arguments == rhs.arguments && lhs.line == rhs.line && lhs.column == rhs.column
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(arguments)
        hasher.combine(line)
        hasher.combine(column)
    }

    private static let builtOnce = Mutex<[CheckDefinition: Check]>([:])
    private static let builtOnceCapacity = 4096

    /// True when a string argument could hold a placeholder (`substitute` fills only those).
    private static func holdsPlaceholder(_ map: CheckArgument.Map) -> Bool {
        func holds(_ argument: CheckArgument) -> Bool {
            switch argument {
            case .string(let text): LiteralSearch.contains(text, "{{")
            case .list(let items): items.contains(where: holds)
            case .map(let map): map.contains { holds($0.value) }
            default: false
            }
        }
        return map.contains { holds($0.value) }
    }

    /// Every placeholder name used in the arguments.
    var placeholders: [String] {
        var names: [String] = []
        func visit(_ argument: CheckArgument) {
            switch argument {
            case .string(let text): names += (try? TemplateText(text))?.placeholders ?? []
            case .list(let items): items.forEach(visit)
            case .map(let map): map.forEach { visit($0.value) }
            default: break
            }
        }
        arguments.forEach { visit($0.value) }
        return names
    }

    private static func substitute(
        _ map: CheckArgument.Map, _ lookup: (String) -> String?, type: String,
        path: [CheckDefinitionError.PathComponent]
    ) throws(CheckDefinitionError) -> CheckArgument.Map {
        var fields: [CheckArgument.Map.Field] = []
        for field in map {
            fields.append(
                CheckArgument.Map.Field(
                    key: field.key, value: try substitute(field.value, lookup, type: type, path: path + [.key(field.key)])))
        }
        return CheckArgument.Map(fields)
    }

    private static func substitute(
        _ argument: CheckArgument, _ lookup: (String) -> String?, type: String,
        path: [CheckDefinitionError.PathComponent]
    ) throws(CheckDefinitionError) -> CheckArgument {
        switch argument {
        case .string(let text) where LiteralSearch.contains(text, "{{"):
            // Validated at load time; an unknown name (impossible after validation) stays as written.
            guard let template = try? TemplateText(text) else { return argument }
            do {
                return .string(try template.render(lookup))
            } catch .unknownPlaceholder {
                return argument
            } catch {
                // A quoted answer can make the argument grow past the limit: the check cannot be built.
                throw CheckDefinitionError(
                    kind: .invalidValue, checkType: type, path: path, problem: "\(error)",
                    hint: "quote a shorter part of the conversation")
            }
        case .list(let items):
            var result: [CheckArgument] = []
            for (index, item) in items.enumerated() {
                result.append(try substitute(item, lookup, type: type, path: path + [.index(index)]))
            }
            return .list(result)
        case .map(let map): return .map(try substitute(map, lookup, type: type, path: path))
        default: return argument
        }
    }
}

/// What `CheckDefinition.resolved` learnt of one definition: a reference, so that the copies of a
/// definition (each replay of a conversation grades the same ones) share it.
private final class BuiltCheck: Sendable {
    enum State: Sendable {
        case unknown
        case holdsPlaceholders
        case built(Check)
    }
    let state = Mutex<State>(.unknown)
}
