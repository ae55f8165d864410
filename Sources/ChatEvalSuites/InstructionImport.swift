import ChatEvalCore
import ChatEvalGrading
import Foundation

/// What the multi-turn instruction-following importers (`chateval import multi-if`, `chateval
/// import ifbench`) share: reading the user's file, turning an IFEval instruction id and its
/// kwargs into a check, and writing the suite as YAML that loads back as the same suite.
///
/// No data ships with ChatEval: the importers read a file the user holds, under its own licence.
struct InstructionImport {
    /// One conversation read from a row or line.
    struct Conversation {
        var id: String
        var system: String?
        var turns: [(user: String, checks: [(type: String, arguments: CheckArgument.Map)])]
        var tags: [String]
    }

    /// The most problems reported: past them the importer stops reading (a file of a million bad
    /// lines says the first hundred, not a million).
    static let maximumProblems = 100

    let file: String
    let dropUnsupported: Bool
    private(set) var errors: [SuiteError] = []
    private(set) var warnings: [SuiteError] = []
    /// Warnings past `maximumProblems`, counted and not kept.
    private var warningsLeftOut = 0
    private var names = PromptfooConfig.UniqueNames()
    /// The suite's YAML so far: the header, then every conversation added, each checked against
    /// the suite's limit as it comes — so that memory stays bounded whatever the input holds.
    private var yaml: String
    private var conversationCount = 0

    init(file: String, dropUnsupported: Bool, name: String, source: String) {
        self.file = file
        self.dropUnsupported = dropUnsupported
        yaml =
            [
                "# Imported from \(Self.quoted(file)) by chateval import \(source). The data stays under its own licence;",
                "# nothing of it ships with ChatEval. Every conversation is tagged multi-turn-if, so reports add the",
                "# per-turn instruction-following scores.",
                "name: \(Self.quoted(name))",
                "description: \(Self.quoted("Imported from \((file as NSString).lastPathComponent) (\(source))."))",
                "defaults:",
                "  max_tokens: 1024      # the public sets ask for answers of hundreds of words",
                "conversations:",
            ].joined(separator: "\n") + "\n"
    }

    /// Ends the line or row numbered `line`: past `maximumProblems` problems, throws them with a
    /// last one saying where reading stopped.
    func endOfRecord(_ line: Int) throws(SuiteErrors) {
        guard errors.count >= Self.maximumProblems else { return }
        throw SuiteErrors(
            errors + [
                SuiteError(
                    .tooComplex, file: file, line: line, "stopped reading here after \(errors.count) problems",
                    hint: "correct these first, or import the file in parts")
            ])
    }

    /// Adds `conversation` (read at `line`) to the suite; throws at `line` once the suite would
    /// pass `SuiteLoader.maximumFileBytes`, so nothing after it is read.
    mutating func add(_ conversation: Conversation, line: Int) throws(SuiteErrors) {
        var lines = [
            "  - id: \(Self.quoted(conversation.id))", "    tags: [" + conversation.tags.map(Self.quoted).joined(separator: ", ") + "]",
        ]
        if let system = conversation.system { lines.append("    system: \(Self.quoted(system))") }
        lines.append("    turns:")
        for turn in conversation.turns {
            lines.append("      - user: \(Self.quoted(turn.user))")
            guard !turn.checks.isEmpty else { continue }
            lines.append("        checks:")
            for check in turn.checks {
                let fields = [("type", CheckArgument.string(check.type))] + check.arguments.fields.map { ($0.key, $0.value) }
                lines.append("          - {" + fields.map { "\(Self.quoted($0.0)): \(Self.yaml($0.1))" }.joined(separator: ", ") + "}")
            }
        }
        let text = lines.joined(separator: "\n") + "\n"
        guard yaml.utf8.count + text.utf8.count <= SuiteLoader.maximumFileBytes else {
            throw SuiteErrors([
                SuiteError(
                    .tooComplex, file: file, line: line,
                    "the suite passes its limit here: it holds at most \(SuiteLoader.maximumFileBytes) bytes, "
                        + "and the \(conversationCount) conversations before this one take \(yaml.utf8.count); nothing after it was read",
                    hint: "import the file in parts (fewer rows each)")
            ])
        }
        yaml += text
        conversationCount += 1
    }

    /// A problem that `--drop-unsupported` turns into a warning (the item is then left out).
    mutating func unsupported(line: Int, _ message: String, hint: String) {
        if dropUnsupported {
            var warning = SuiteError(.suspicious, file: file, line: line, message + "; left out", hint: nil)
            warning.severity = .warning
            keep(warning)
        } else {
            errors.append(SuiteError(.invalidValue, file: file, line: line, message, hint: hint + " (or --drop-unsupported leaves it out)"))
        }
    }

    mutating func fail(line: Int?, _ message: String, hint: String? = nil) {
        errors.append(SuiteError(.invalidValue, file: file, line: line, message, hint: hint))
    }

    mutating func warn(line: Int?, _ message: String) {
        var warning = SuiteError(.suspicious, file: file, line: line, message)
        warning.severity = .warning
        keep(warning)
    }

    /// Keeps `warning`, or counts it past `maximumProblems`.
    private mutating func keep(_ warning: SuiteError) {
        if warnings.count < Self.maximumProblems { warnings.append(warning) } else { warningsLeftOut += 1 }
    }

    /// A unique conversation id from the data's key (or `fallback`).
    mutating func conversationID(_ key: String?, fallback: String) -> String {
        names.claim(PromptfooConfig.slug(key ?? "", fallback: fallback))
    }

    /// The checks of IFEval instruction ids with their kwargs (an object, a JSON text of one, or
    /// null; null-valued keys are the reference's unset arguments and are dropped). An id
    /// ChatEval has no check for, or arguments it refuses, is unsupported.
    mutating func checks(ids: [String], kwargs: [JSONValue], line: Int, turn: Int) -> [(type: String, arguments: CheckArgument.Map)]? {
        guard kwargs.isEmpty || kwargs.count == ids.count else {
            fail(
                line: line, "turn \(turn) lists \(ids.count) instruction ids but \(kwargs.count) kwargs",
                hint: "give one kwargs entry per id")
            return nil
        }
        var result: [(String, CheckArgument.Map)] = []
        for (index, id) in ids.enumerated() {
            guard let info = CheckCatalogue.info(for: id), info.family == .ifeval else {
                unsupported(
                    line: line, "turn \(turn): instruction '\(id)' has no ChatEval check",
                    hint: "ChatEval runs IFEval's instructions (suites/README.md, \"ifeval\"); write a check by hand")
                continue
            }
            var value = index < kwargs.count ? kwargs[index] : .object([:])
            if case .string(let text) = value { value = (JSONValue(parsing: Data(text.utf8))) ?? .null }
            let arguments: CheckArgument.Map
            switch value {
            case .null: arguments = CheckArgument.Map()
            case .object(let object):
                arguments = CheckArgument.Map(
                    object.keys.sorted().compactMap { key in
                        Self.argument(object[key] ?? .null).map { .init(key: key, value: $0) }
                    })
            default:
                fail(line: line, "turn \(turn): the kwargs of '\(id)' are not an object", hint: "write them as {\"name\": value}")
                continue
            }
            do {
                try CheckCatalogue.validate(type: id, arguments: arguments)
                result.append((id, arguments))
            } catch {
                unsupported(line: line, "turn \(turn): '\(id)' cannot be checked as given: \(error)", hint: "correct its kwargs")
            }
        }
        return result
    }

    /// A JSON value as a check argument; nil for null.
    static func argument(_ value: JSONValue) -> CheckArgument? {
        switch value {
        case .null: nil
        case .bool(let flag): .bool(flag)
        case .integer(let number): .integer(number)
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? .integer(Int(number)) : .number(number)
        case .string(let text): .string(text)
        case .array(let items): .list(items.compactMap(argument))
        case .object(let object):
            .map(CheckArgument.Map(object.keys.sorted().compactMap { key in argument(object[key]!).map { .init(key: key, value: $0) } }))
        }
    }

    /// A user message as a turn; a message with `{{` (which a suite reads as a placeholder, with
    /// no escape) is unsupported.
    mutating func userMessage(_ text: String, line: Int, turn: Int) -> String? {
        guard !text.contains("{{") else {
            unsupported(
                line: line, "turn \(turn)'s message holds '{{', which a suite reads as a placeholder (there is no escape)",
                hint: "edit the message")
            return nil
        }
        return text
    }

    /// The suite as YAML, checked to load back; every problem found so far is thrown.
    func suite() throws(SuiteErrors) -> (yaml: String, warnings: [SuiteError]) {
        guard errors.isEmpty else { throw SuiteErrors(errors) }
        guard conversationCount > 0 else { throw SuiteErrors([SuiteError(.invalidValue, file: file, "no conversation to import")]) }
        _ = try SuiteLoader.parse(yaml, file: file)
        var warnings = warnings
        if warningsLeftOut > 0 {
            var more = SuiteError(.suspicious, file: file, "\(warningsLeftOut) more warning(s) like these, not listed")
            more.severity = .warning
            warnings.append(more)
        }
        return (yaml, warnings)
    }

    /// A YAML flow value: strings double-quoted (so "42" stays text), numbers and booleans plain.
    static func yaml(_ argument: CheckArgument) -> String {
        switch argument {
        case .string(let text): quoted(text)
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .list(let items): "[" + items.map(yaml).joined(separator: ", ") + "]"
        case .map(let map): "{" + map.fields.map { "\(quoted($0.key)): \(yaml($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    /// A YAML double-quoted scalar: backslash, quote and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar == "\u{2028}"
                    || scalar == "\u{2029}" || scalar == "\u{FEFF}"
                {
                    result += String(format: "\\u%04X", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
