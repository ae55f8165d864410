import ChatEvalCore

/// Python's `json.loads` grammar (strict mode) over code points.
enum PythonJSON {
    struct Problem: Error {
        var message: String
        var offset: Int
    }
    static let maximumDepth = 512

    static func parse(_ text: ArraySlice<Unicode.Scalar>) -> Result<ParsedJSON, Problem> {
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

        mutating func value(depth: Int) throws(Problem) -> ParsedJSON {
            guard depth < PythonJSON.maximumDepth else {
                throw Problem(message: "nesting deeper than \(PythonJSON.maximumDepth) levels", offset: i)
            }
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

        mutating func number() -> ParsedJSON? {
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
                guard c == "\\" else {
                    out.append(c)
                    continue
                }
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

        mutating func array(depth: Int) throws(Problem) -> ParsedJSON {
            i += 1
            var items: [ParsedJSON] = []
            skipWhitespace()
            if peek() == "]" {
                i += 1
                return .array(items)
            }
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

        mutating func object(depth: Int) throws(Problem) -> ParsedJSON {
            i += 1
            var members: [String: ParsedJSON] = [:]
            skipWhitespace()
            if peek() == "}" {
                i += 1
                return .object(members)
            }
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
