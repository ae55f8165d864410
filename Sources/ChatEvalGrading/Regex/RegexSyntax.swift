/// Parser for the subset of Python `re` syntax that the linear-time engine runs.
///
/// Supported: literals and escapes (`\n \t \r \f \v \a \0 \xhh \uhhhh \Uhhhhhhhh`, escaped
/// punctuation), `.`, classes `[...]` with ranges and `\d \D \w \W \s \S`, anchors `^ $ \A \Z \b \B`,
/// groups `( )`, `(?: )`, `(?P<name> )`, comments `(?# )`, flags `(?imsx)` at the start and scoped
/// `(?i: )`, alternation, quantifiers `* + ? {m} {m,} {,n} {m,n}` greedy or lazy (`?`), and possessive
/// Lookaround and possessive quantifiers (run as greedy) are accepted only for the library's own
/// fixed patterns (`allowLookaround`); back-references, atomic groups and conditionals are
/// rejected: they are what makes a regex engine need backtracking.
struct RegexFlags: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let ignoreCase = RegexFlags(rawValue: 1)
    static let multiline = RegexFlags(rawValue: 2)
    static let dotAll = RegexFlags(rawValue: 4)
    static let verbose = RegexFlags(rawValue: 8)
    /// `\w`, `\s` and `\b` as the third-party `regex` module defines them (Unicode TR #18), for
    /// the patterns nltk ≥ 3.10 compiles with it. Without it, Python `re`'s definitions.
    static let regexModule = RegexFlags(rawValue: 16)
}

/// Why a pattern cannot be compiled; `offset` counts code points from the pattern's start.
struct RegexSyntaxError: Error, Sendable, Hashable {
    var message: String
    var offset: Int
}

/// One item of a character class.
enum ClassItem: Sendable, Hashable {
    case range(UInt32, UInt32)
    case word, notWord, digit, notDigit, space, notSpace
    case moduleWord, notModuleWord, moduleSpace, notModuleSpace

    func contains(_ c: Unicode.Scalar) -> Bool {
        switch self {
        case .range(let lo, let hi): return c.value >= lo && c.value <= hi
        case .word: return PythonText.isWord(c)
        case .notWord: return !PythonText.isWord(c)
        case .digit: return PythonText.isDecimalDigit(c)
        case .notDigit: return !PythonText.isDecimalDigit(c)
        case .space: return PythonText.isSpace(c)
        case .notSpace: return !PythonText.isSpace(c)
        case .moduleWord: return PythonText.isModuleWord(c)
        case .notModuleWord: return !PythonText.isModuleWord(c)
        case .moduleSpace: return PythonText.isModuleSpace(c)
        case .notModuleSpace: return !PythonText.isModuleSpace(c)
        }
    }
}

struct CharClass: Sendable, Hashable {
    var items: [ClassItem]
    var negated: Bool
    /// Membership of ASCII characters, precomputed (already folded and negated).
    var ascii: [Bool] = []
    var caseless = false

    init(items: [ClassItem], negated: Bool, caseless: Bool) {
        self.items = items
        self.negated = negated
        self.caseless = caseless
        self.ascii = (0..<128).map { v in
            Self.member(items, negated, caseless, Unicode.Scalar(UInt8(v)))
        }
    }

    func matches(_ c: Unicode.Scalar) -> Bool {
        if c.value < 128 { return ascii[Int(c.value)] }
        return Self.member(items, negated, caseless, c)
    }

    private static func member(_ items: [ClassItem], _ negated: Bool, _ caseless: Bool, _ c: Unicode.Scalar) -> Bool {
        var found = items.contains { $0.contains(c) }
        if !found && caseless {
            let lower = PythonText.simpleLower(c), upper = PythonText.simpleUpper(c)
            found = items.contains { $0.contains(lower) || $0.contains(upper) }
        }
        return found != negated
    }
}

enum RegexAssertion: Int32, Sendable {
    case lineStart, lineStartMultiline, lineEnd, lineEndMultiline, textStart, textEnd, wordBoundary, notWordBoundary
    case moduleWordBoundary, notModuleWordBoundary
}

indirect enum RegexNode: Sendable {
    case empty
    case literal(Unicode.Scalar, caseless: Bool)
    case any(dotAll: Bool)
    case set(CharClass)
    case assertion(RegexAssertion)
    case group(RegexNode, capture: Int?)
    case concat([RegexNode])
    case alternation([RegexNode])
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool)
    case look(RegexNode, ahead: Bool, negated: Bool)

    /// Length in characters when every match has the same length (for look-behind), else nil.
    var fixedWidth: Int? {
        switch self {
        case .empty, .assertion, .look: return 0
        case .literal, .any, .set: return 1
        case .group(let node, _): return node.fixedWidth
        case .concat(let nodes):
            var total = 0
            for node in nodes { guard let w = node.fixedWidth else { return nil }; total += w }
            return total
        case .alternation(let nodes):
            let widths = nodes.map(\.fixedWidth)
            guard let first = widths.first, let w = first, widths.allSatisfy({ $0 == w }) else { return nil }
            return w
        case .repetition(let node, let min, let max, _):
            guard let max, max == min, let w = node.fixedWidth else { return nil }
            return w * min
        }
    }
}

struct ParsedRegex: Sendable {
    var root: RegexNode
    var groupCount: Int
    var groupNames: [String: Int]
}

/// Python's limit on counted repetition is far higher; this one keeps programs small.
let maximumRepetitionCount = 1000

struct RegexParser {
    private let p: Scalars
    private var i = 0
    private var flags: RegexFlags
    private var groupCount = 0
    private var groupNames: [String: Int] = [:]
    private let allowLookaround: Bool

    static func parse(_ pattern: String, flags: RegexFlags, allowLookaround: Bool) throws(RegexSyntaxError) -> ParsedRegex {
        var parser = RegexParser(p: pattern.scalars, flags: flags, allowLookaround: allowLookaround)
        try parser.parseLeadingFlags()
        let root = try parser.parseAlternation()
        if parser.i < parser.p.count {
            throw RegexSyntaxError(message: "unbalanced parenthesis", offset: parser.i)
        }
        return ParsedRegex(root: root, groupCount: parser.groupCount, groupNames: parser.groupNames)
    }

    private init(p: Scalars, flags: RegexFlags, allowLookaround: Bool) {
        self.p = p
        self.flags = flags
        self.allowLookaround = allowLookaround
    }

    private var atEnd: Bool { i >= p.count }
    private var module: Bool { flags.contains(.regexModule) }
    private func peek(_ offset: Int = 0) -> Unicode.Scalar? { i + offset < p.count ? p[i + offset] : nil }

    /// Global inline flags, `(?i)` and friends, accepted only at the start (as Python 3.11 requires).
    private mutating func parseLeadingFlags() throws(RegexSyntaxError) {
        while peek() == "(" && peek(1) == "?" {
            var j = i + 2
            var found: RegexFlags = []
            while j < p.count, let f = Self.flag(p[j]) { found.insert(f); j += 1 }
            guard j < p.count, p[j] == ")", j > i + 2 else { return }
            flags.formUnion(found)
            i = j + 1
        }
    }

    private static func flag(_ c: Unicode.Scalar) -> RegexFlags? {
        switch c {
        case "i": return .ignoreCase
        case "m": return .multiline
        case "s": return .dotAll
        case "x": return .verbose
        case "u": return []
        default: return nil
        }
    }

    private mutating func skipVerboseWhitespace() {
        guard flags.contains(.verbose) else { return }
        while let c = peek() {
            if PythonText.isSpace(c) { i += 1 }
            else if c == "#" { while let d = peek(), d != "\n" { i += 1 } }
            else { break }
        }
    }

    private mutating func parseAlternation() throws(RegexSyntaxError) -> RegexNode {
        var branches = [try parseConcatenation()]
        while peek() == "|" {
            i += 1
            branches.append(try parseConcatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseConcatenation() throws(RegexSyntaxError) -> RegexNode {
        var items: [RegexNode] = []
        while true {
            skipVerboseWhitespace()
            guard let c = peek(), c != "|", c != ")" else { break }
            let start = i
            guard let atom = try parseAtom() else { continue }
            items.append(try parseQuantifiers(atom, atomStart: start))
        }
        return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concat(items))
    }

    private mutating func parseQuantifiers(_ atom: RegexNode, atomStart: Int) throws(RegexSyntaxError) -> RegexNode {
        var node = atom
        var quantified = false
        while true {
            skipVerboseWhitespace()
            guard let c = peek() else { return node }
            var bounds: (Int, Int?)
            switch c {
            case "*": bounds = (0, nil); i += 1
            case "+": bounds = (1, nil); i += 1
            case "?": bounds = (0, 1); i += 1
            case "{":
                guard let counted = try parseCountedRepetition() else { return node }
                bounds = counted
            default: return node
            }
            if quantified { throw RegexSyntaxError(message: "multiple repeat", offset: i - 1) }
            if case .assertion = atom { throw RegexSyntaxError(message: "nothing to repeat", offset: i - 1) }
            if case .empty = atom { throw RegexSyntaxError(message: "nothing to repeat", offset: i - 1) }
            var greedy = true
            if peek() == "?" { greedy = false; i += 1 }
            else if peek() == "+" {
                // Possessive: accepted only in the library's own patterns, where it matches as
                // greedy does; a user pattern relying on it would silently match differently.
                guard allowLookaround else { throw unsupported("possessive quantifier", at: i) }
                i += 1
            }
            node = .repetition(node, min: bounds.0, max: bounds.1, greedy: greedy)
            quantified = true
        }
    }

    /// `{m}`, `{m,}`, `{,n}`, `{m,n}`; nil (and no input consumed) when `{` is a literal.
    private mutating func parseCountedRepetition() throws(RegexSyntaxError) -> (Int, Int?)? {
        var j = i + 1
        func number(_ j: inout Int) -> Int? {
            var value: Int?
            while j < p.count, p[j].value >= 0x30 && p[j].value <= 0x39 {
                value = min((value ?? 0) * 10 + Int(p[j].value - 0x30), Int(Int32.max))
                j += 1
            }
            return value
        }
        let low = number(&j)
        var high: Int?
        var hasComma = false
        if j < p.count && p[j] == "," { hasComma = true; j += 1; high = number(&j) }
        guard j < p.count, p[j] == "}" else { return nil }
        if low == nil && !hasComma { return nil }
        let lo = low ?? 0
        let hi: Int? = hasComma ? high : lo
        if let hi, hi < lo { throw RegexSyntaxError(message: "min repeat greater than max repeat", offset: i) }
        if lo > maximumRepetitionCount || (hi ?? 0) > maximumRepetitionCount {
            throw RegexSyntaxError(message: "repetition count above \(maximumRepetitionCount)", offset: i)
        }
        i = j + 1
        return (lo, hi)
    }

    private mutating func parseAtom() throws(RegexSyntaxError) -> RegexNode? {
        guard let c = peek() else { return .empty }
        switch c {
        case "(": return try parseGroup()
        case "[": i += 1; return .set(try parseClass())
        case ".": i += 1; return .any(dotAll: flags.contains(.dotAll))
        case "^": i += 1; return .assertion(flags.contains(.multiline) ? .lineStartMultiline : .lineStart)
        case "$": i += 1; return .assertion(flags.contains(.multiline) ? .lineEndMultiline : .lineEnd)
        case "*", "+", "?":
            throw RegexSyntaxError(message: "nothing to repeat", offset: i)
        case "{":
            let save = i
            if (try parseCountedRepetition()) != nil { throw RegexSyntaxError(message: "nothing to repeat", offset: save) }
            i += 1
            return literal(c)
        case "\\": return try parseEscape()
        default:
            i += 1
            return literal(c)
        }
    }

    private func literal(_ c: Unicode.Scalar) -> RegexNode {
        let caseless = flags.contains(.ignoreCase)
            && (PythonText.simpleLower(c) != c || PythonText.simpleUpper(c) != c)
        return .literal(caseless ? PythonText.simpleLower(c) : c, caseless: caseless)
    }

    private mutating func parseGroup() throws(RegexSyntaxError) -> RegexNode? {
        let open = i
        i += 1
        guard peek() == "?" else {
            groupCount += 1
            let index = groupCount
            let body = try parseAlternation()
            try expectClose(open)
            return .group(body, capture: index)
        }
        i += 1
        guard let kind = peek() else { throw RegexSyntaxError(message: "unexpected end of pattern", offset: i) }
        switch kind {
        case ":":
            i += 1
            let body = try parseAlternation()
            try expectClose(open)
            return .group(body, capture: nil)
        case "#":
            while let d = peek(), d != ")" { i += 1 }
            try expectClose(open)
            return nil
        case "P":
            i += 1
            if peek() == "=" { throw unsupported("named back-reference (?P=name)", at: open) }
            guard peek() == "<" else { throw RegexSyntaxError(message: "unknown extension ?P", offset: open) }
            i += 1
            return try parseNamedGroup(open)
        case "<" where peek(1) != "=" && peek(1) != "!":
            i += 1
            return try parseNamedGroup(open)
        case "=", "!":
            i += 1
            return try parseLook(open, ahead: true, negated: kind == "!")
        case "<":
            i += 2
            return try parseLook(open, ahead: false, negated: p[i - 1] == "!")
        case ">": throw unsupported("atomic group (?>...)", at: open)
        case "(": throw unsupported("conditional group (?(...)...)", at: open)
        default:
            var on: RegexFlags = [], off: RegexFlags = []
            var negative = false
            while let c = peek(), c != ":" && c != ")" {
                if c == "-" { negative = true; i += 1; continue }
                guard let f = Self.flag(c) else { throw RegexSyntaxError(message: "unknown flag", offset: i) }
                if negative { off.insert(f) } else { on.insert(f) }
                i += 1
            }
            guard peek() == ":" else {
                throw RegexSyntaxError(message: "global flags not at the start of the expression", offset: open)
            }
            i += 1
            let saved = flags
            flags.formUnion(on)
            flags.subtract(off)
            let body = try parseAlternation()
            flags = saved
            try expectClose(open)
            return .group(body, capture: nil)
        }
    }

    private mutating func parseNamedGroup(_ open: Int) throws(RegexSyntaxError) -> RegexNode {
        var name = ""
        while let c = peek(), c != ">" { name.unicodeScalars.append(c); i += 1 }
        guard peek() == ">", !name.isEmpty else { throw RegexSyntaxError(message: "missing group name", offset: open) }
        i += 1
        guard groupNames[name] == nil else { throw RegexSyntaxError(message: "redefinition of group name '\(name)'", offset: open) }
        groupCount += 1
        let index = groupCount
        groupNames[name] = index
        let body = try parseAlternation()
        try expectClose(open)
        return .group(body, capture: index)
    }

    private mutating func parseLook(_ open: Int, ahead: Bool, negated: Bool) throws(RegexSyntaxError) -> RegexNode {
        guard allowLookaround else { throw unsupported(ahead ? "look-ahead (?=...)/(?!...)" : "look-behind (?<=...)/(?<!...)", at: open) }
        let body = try parseAlternation()
        try expectClose(open)
        if !ahead && body.fixedWidth == nil {
            throw RegexSyntaxError(message: "look-behind requires fixed-width pattern", offset: open)
        }
        return .look(body, ahead: ahead, negated: negated)
    }

    private mutating func expectClose(_ open: Int) throws(RegexSyntaxError) {
        guard peek() == ")" else { throw RegexSyntaxError(message: "missing ), unterminated subpattern", offset: open) }
        i += 1
    }

    private func unsupported(_ what: String, at offset: Int) -> RegexSyntaxError {
        RegexSyntaxError(message: "\(what) is not supported (the engine guarantees linear-time matching)", offset: offset)
    }

    private mutating func parseEscape() throws(RegexSyntaxError) -> RegexNode {
        let start = i
        i += 1
        guard let c = peek() else { throw RegexSyntaxError(message: "bad escape (end of pattern)", offset: start) }
        i += 1
        switch c {
        case "d": return .set(CharClass(items: [.digit], negated: false, caseless: false))
        case "D": return .set(CharClass(items: [.notDigit], negated: false, caseless: false))
        case "w": return .set(CharClass(items: [module ? .moduleWord : .word], negated: false, caseless: false))
        case "W": return .set(CharClass(items: [module ? .notModuleWord : .notWord], negated: false, caseless: false))
        case "s": return .set(CharClass(items: [module ? .moduleSpace : .space], negated: false, caseless: false))
        case "S": return .set(CharClass(items: [module ? .notModuleSpace : .notSpace], negated: false, caseless: false))
        case "b": return .assertion(module ? .moduleWordBoundary : .wordBoundary)
        case "B": return .assertion(module ? .notModuleWordBoundary : .notWordBoundary)
        case "A": return .assertion(.textStart)
        case "Z": return .assertion(.textEnd)
        case "1"..."9": throw unsupported("back-reference \\\(c)", at: start)
        default:
            i -= 1
            return literal(try parseCharacterEscape(start, inClass: false))
        }
    }

    /// The character an escape stands for (`\n`, `\x41`, `\.`…); `i` is just after the backslash.
    private mutating func parseCharacterEscape(_ start: Int, inClass: Bool) throws(RegexSyntaxError) -> Unicode.Scalar {
        guard let c = peek() else { throw RegexSyntaxError(message: "bad escape (end of pattern)", offset: start) }
        i += 1
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "f": return "\u{0C}"
        case "v": return "\u{0B}"
        case "a": return "\u{07}"
        case "b" where inClass: return "\u{08}"
        case "0":
            var value: UInt32 = 0
            var digits = 0
            while digits < 2, let d = peek(), ("0"..."7").contains(d) { value = value * 8 + d.value - 48; i += 1; digits += 1 }
            return Unicode.Scalar(UInt8(value))
        case "x": return try hexEscape(2, start)
        case "u": return try hexEscape(4, start)
        case "U": return try hexEscape(8, start)
        default:
            if c.isASCII && (PythonText.isWord(c)) {
                throw RegexSyntaxError(message: "bad escape \\\(c)", offset: start)
            }
            return c
        }
    }

    private mutating func hexEscape(_ count: Int, _ start: Int) throws(RegexSyntaxError) -> Unicode.Scalar {
        guard i + count <= p.count else { throw RegexSyntaxError(message: "incomplete escape", offset: start) }
        var value: UInt32 = 0
        for k in 0..<count {
            guard let digit = hexDigit(p[i + k]) else {
                throw RegexSyntaxError(message: "incomplete escape", offset: start)
            }
            value = value * 16 + digit
        }
        i += count
        guard let scalar = Unicode.Scalar(value) else { throw RegexSyntaxError(message: "bad escape (invalid code point)", offset: start) }
        return scalar
    }

    private func hexDigit(_ c: Unicode.Scalar) -> UInt32? {
        switch c.value {
        case 0x30...0x39: return c.value - 0x30
        case 0x61...0x66: return c.value - 0x61 + 10
        case 0x41...0x46: return c.value - 0x41 + 10
        default: return nil
        }
    }

    private mutating func parseClass() throws(RegexSyntaxError) -> CharClass {
        let open = i - 1
        var negated = false
        if peek() == "^" { negated = true; i += 1 }
        var items: [ClassItem] = []
        var first = true
        while true {
            guard let c = peek() else { throw RegexSyntaxError(message: "unterminated character set", offset: open) }
            if c == "]" && !first { i += 1; break }
            first = false
            let low: Unicode.Scalar
            if c == "\\" {
                i += 1
                switch peek() {
                case "d": i += 1; items.append(.digit); continue
                case "D": i += 1; items.append(.notDigit); continue
                case "w": i += 1; items.append(module ? .moduleWord : .word); continue
                case "W": i += 1; items.append(module ? .notModuleWord : .notWord); continue
                case "s": i += 1; items.append(module ? .moduleSpace : .space); continue
                case "S": i += 1; items.append(module ? .notModuleSpace : .notSpace); continue
                case .some(let d) where ("1"..."9").contains(d):
                    throw RegexSyntaxError(message: "bad escape \\\(d) in character set", offset: i - 1)
                default: low = try parseCharacterEscape(i - 1, inClass: true)
                }
            } else {
                i += 1
                low = c
            }
            if peek() == "-", let next = peek(1), next != "]" {
                i += 1
                let high: Unicode.Scalar
                if next == "\\" {
                    i += 1
                    high = try parseCharacterEscape(i - 1, inClass: true)
                } else {
                    i += 1
                    high = next
                }
                guard high.value >= low.value else { throw RegexSyntaxError(message: "bad character range", offset: i - 1) }
                items.append(.range(low.value, high.value))
            } else {
                items.append(.range(low.value, low.value))
            }
        }
        return CharClass(items: items, negated: negated, caseless: flags.contains(.ignoreCase))
    }
}
