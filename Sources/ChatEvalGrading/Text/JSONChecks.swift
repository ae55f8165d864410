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
        CheckFactory("is-json", .json, "The answer (trimmed) is valid JSON.",
                     arguments: [allowFencesArgument]) { r throws(CheckDefinitionError) in
            JSONCheck(requirements: [], allowFences: try r.bool("allow-fences", default: false), rootType: nil)
        },
        CheckFactory("json", .json,
                     "The answer is valid JSON with the required paths, each of the given type.",
                     arguments: [
                        ArgumentInfo("required", "map from path to type", required: false,
                                     "Paths like `a.b`, `items[0].id`, `items[*].id`; types: string, number, integer, boolean, null, array, object, any."),
                        ArgumentInfo("root", "object | array | any", required: false, "Type of the top-level value (default any)."),
                        allowFencesArgument,
                     ]) { r throws(CheckDefinitionError) in
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
                        var e = r.error(.invalidValue, "required", "names type \"\(typeName)\"",
                                        expected: JSONType.allCases.map(\.rawValue).joined(separator: ", "), at: [.key(field.key)])
                        e.suggestions = suggestions(for: typeName, among: JSONType.allCases.map(\.rawValue))
                        throw e
                    }
                    requirements.append(JSONRequirement(path: path, type: type))
                }
            }
            let root = try r.choice("root", ["object", "array", "any"], default: "any")
            return JSONCheck(requirements: requirements, allowFences: try r.bool("allow-fences", default: false),
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

enum JSONType: String, CaseIterable, Sendable {
    case string, number, integer, boolean, null, array, object, any

    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.any, _), (.string, .string), (.boolean, .bool), (.null, .null), (.array, .array), (.object, .object): return true
        case (.number, .number): return true
        case (.integer, .number(let d, let integral)): return integral || (d.isFinite && d.rounded() == d)
        default: return false
        }
    }
}

/// A parsed JSON value; objects keep their keys in order.
indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The value, and whether it was written without a fraction or exponent.
    case number(Double, integral: Bool)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(_, let integral): integral ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A path into a JSON value: keys separated by dots, array indices in brackets, `[*]` for every element.
struct JSONPath: Sendable, CustomStringConvertible {
    enum Step: Sendable { case key(String), index(Int), every }
    let steps: [Step]
    let description: String

    init(_ text: String, error: (String) -> CheckDefinitionError) throws(CheckDefinitionError) {
        description = text
        var steps: [Step] = []
        var key = ""
        let chars = Array(text)
        var i = 0
        func flushKey() { if !key.isEmpty { steps.append(.key(key)); key = "" } }
        if chars.isEmpty { throw error("is an empty path") }
        while i < chars.count {
            let c = chars[i]
            if c == "." {
                if key.isEmpty, case .key? = steps.last { throw error("path \"\(text)\" has an empty key") }
                if key.isEmpty && steps.isEmpty { throw error("path \"\(text)\" has an empty key") }
                flushKey()
                i += 1
            } else if c == "[" {
                flushKey()
                guard let close = chars[i...].firstIndex(of: "]") else { throw error("path \"\(text)\" has an unclosed [") }
                let inside = String(chars[(i + 1)..<close])
                if inside == "*" { steps.append(.every) }
                else if let n = Int(inside), n >= 0 { steps.append(.index(n)) }
                else { throw error("path \"\(text)\" has [\(inside)]; expected [n] with n ≥ 0, or [*]") }
                i = close + 1
            } else {
                key.append(c)
                i += 1
            }
        }
        if chars.last == "." { throw error("path \"\(text)\" ends with a dot") }
        flushKey()
        self.steps = steps
    }

    enum Resolution { case success([JSONValue]), failure(String) }

    /// The values at this path (several with `[*]`), or the first step that could not be followed.
    func resolve(_ root: JSONValue) -> Resolution {
        var current = [root]
        var walked = ""
        for step in steps {
            var next: [JSONValue] = []
            for value in current {
                switch (step, value) {
                case (.key(let k), .object(let members)):
                    guard let v = members[k] else { return .failure("\(walked.isEmpty ? "the root" : walked) has no key \"\(k)\"") }
                    next.append(v)
                case (.index(let n), .array(let items)):
                    guard n < items.count else { return .failure("\(walked.isEmpty ? "the root" : walked) has \(items.count) items, no [\(n)]") }
                    next.append(items[n])
                case (.every, .array(let items)):
                    next.append(contentsOf: items)
                case (.key(let k), _):
                    return .failure("\(walked.isEmpty ? "the root" : walked) is \(value.typeName), not an object (looking for \"\(k)\")")
                case (.index, _), (.every, _):
                    return .failure("\(walked.isEmpty ? "the root" : walked) is \(value.typeName), not an array")
                }
            }
            switch step {
            case .key(let k): walked += walked.isEmpty ? k : ".\(k)"
            case .index(let n): walked += "[\(n)]"
            case .every: walked += "[*]"
            }
            current = next
        }
        return .success(current)
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
        let value: JSONValue
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
                    return .fail("expected \(requirement.path) to be \(requirement.type.rawValue), found \(wrong.typeName): \(Excerpt.head(String(scalars: text)))")
                }
            }
        }
        let paths = requirements.isEmpty ? "" : " with \(requirements.count) required path\(requirements.count == 1 ? "" : "s")"
        return .pass("valid JSON \(value.typeName)\(paths): \(Excerpt.head(String(scalars: text)))")
    }
}

/// Python's `json.loads` grammar (strict mode) over code points.
enum PythonJSON {
    struct Problem: Error { var message: String; var offset: Int }
    static let maximumDepth = 512

    static func parse(_ text: ArraySlice<Unicode.Scalar>) -> Result<JSONValue, Problem> {
        var parser = Parser(s: Array(text))
        do throws(Problem) {
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            if parser.i != parser.s.count { throw Problem(message: "extra data after the value", offset: parser.i) }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    private struct Parser {
        let s: Scalars
        var i = 0

        func peek() -> Unicode.Scalar? { i < s.count ? s[i] : nil }

        mutating func skipWhitespace() {
            while let c = peek(), c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1 }
        }

        mutating func literal(_ word: String) -> Bool {
            let w = word.scalars
            guard i + w.count <= s.count, s[i..<(i + w.count)].elementsEqual(w) else { return false }
            i += w.count
            return true
        }

        mutating func value(depth: Int) throws(Problem) -> JSONValue {
            guard depth < PythonJSON.maximumDepth else { throw Problem(message: "nesting deeper than \(PythonJSON.maximumDepth) levels", offset: i) }
            guard let c = peek() else { throw Problem(message: "expecting a value (end of text)", offset: i) }
            switch c {
            case "{": return try object(depth: depth)
            case "[": return try array(depth: depth)
            case "\"": return .string(try string())
            case "n" where literal("null"): return .null
            case "t" where literal("true"): return .bool(true)
            case "f" where literal("false"): return .bool(false)
            case "N" where literal("NaN"): return .number(.nan, integral: false)
            case "I" where literal("Infinity"): return .number(.infinity, integral: false)
            case "-" where literal("-Infinity"): return .number(-.infinity, integral: false)
            default:
                if let number = number() { return number }
                throw Problem(message: "expecting a value", offset: i)
            }
        }

        mutating func number() -> JSONValue? {
            let start = i
            func digit(_ k: Int) -> Bool { k < s.count && s[k].value >= 0x30 && s[k].value <= 0x39 }
            var j = i
            if j < s.count && s[j] == "-" { j += 1 }
            guard digit(j) else { return nil }
            if s[j] == "0" { j += 1 } else { while digit(j) { j += 1 } }
            var integral = true
            if j < s.count && s[j] == ".", digit(j + 1) {
                integral = false
                j += 1
                while digit(j) { j += 1 }
            }
            if j < s.count && (s[j] == "e" || s[j] == "E") {
                var k = j + 1
                if k < s.count && (s[k] == "+" || s[k] == "-") { k += 1 }
                if digit(k) {
                    integral = false
                    j = k
                    while digit(j) { j += 1 }
                }
            }
            i = j
            let text = String(scalars: s[start..<j])
            return .number(Double(text) ?? .nan, integral: integral)
        }

        mutating func string() throws(Problem) -> String {
            let open = i
            i += 1
            var out = String.UnicodeScalarView()
            while true {
                guard let c = peek() else { throw Problem(message: "unterminated string", offset: open) }
                i += 1
                if c == "\"" { return String(out) }
                if c.value < 0x20 { throw Problem(message: "invalid control character in string", offset: i - 1) }
                guard c == "\\" else { out.append(c); continue }
                guard let e = peek() else { throw Problem(message: "unterminated string", offset: open) }
                i += 1
                switch e {
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "/": out.append("/")
                case "b": out.append("\u{08}")
                case "f": out.append("\u{0C}")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "u":
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code), peek() == "\\", i + 1 < s.count, s[i + 1] == "u" {
                        let save = i
                        i += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            i = save
                        }
                    }
                    out.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw Problem(message: "invalid \\escape", offset: i - 2)
                }
            }
        }

        mutating func hex4() throws(Problem) -> UInt32 {
            guard i + 4 <= s.count else { throw Problem(message: "invalid \\uXXXX escape", offset: i) }
            var v: UInt32 = 0
            for k in 0..<4 {
                let c = s[i + k].value
                let d: UInt32
                switch c {
                case 0x30...0x39: d = c - 0x30
                case 0x41...0x46: d = c - 0x41 + 10
                case 0x61...0x66: d = c - 0x61 + 10
                default: throw Problem(message: "invalid \\uXXXX escape", offset: i)
                }
                v = v * 16 + d
            }
            i += 4
            return v
        }

        mutating func array(depth: Int) throws(Problem) -> JSONValue {
            i += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if peek() == "]" { i += 1; return .array(items) }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard let c = peek() else { throw Problem(message: "expecting ',' or ']'", offset: i) }
                i += 1
                if c == "]" { return .array(items) }
                guard c == "," else { throw Problem(message: "expecting ',' delimiter", offset: i - 1) }
            }
        }

        mutating func object(depth: Int) throws(Problem) -> JSONValue {
            i += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if peek() == "}" { i += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard peek() == "\"" else { throw Problem(message: "expecting property name enclosed in double quotes", offset: i) }
                let key = try string()
                skipWhitespace()
                guard peek() == ":" else { throw Problem(message: "expecting ':' delimiter", offset: i) }
                i += 1
                skipWhitespace()
                members[key] = try value(depth: depth + 1)
                skipWhitespace()
                guard let c = peek() else { throw Problem(message: "expecting ',' or '}'", offset: i) }
                i += 1
                if c == "}" { return .object(members) }
                guard c == "," else { throw Problem(message: "expecting ',' delimiter", offset: i - 1) }
            }
        }
    }
}
