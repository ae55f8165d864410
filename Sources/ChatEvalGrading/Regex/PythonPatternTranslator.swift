/// Rewrites a Python `re` pattern (Python 3.11 syntax) as a PCRE2 pattern with the same meaning,
/// and refuses what Python refuses where PCRE2 would accept it with another meaning.
///
/// The translation, where the two differ:
/// - `\w \W \d \D \s \S` become explicit classes: Python's `\w` is `str.isalnum()` or `_` (letters
///   and numbers of any script: `[\p{L}\p{N}_]`, not combining marks), `\d` is `\p{Nd}`, and `\s`
///   is `str.isspace()`, which adds U+001C–U+001F to Unicode's White_Space. PCRE2's own classes
///   differ by version (10.43 adds marks to `\w`) and its `\s` includes U+180E.
/// - `\b` and `\B` stay PCRE2's where its `\w` is Python's (`nativeWordBoundary`: PCRE2 up to
///   10.42, whose UCP `\w` is `[\p{L}\p{N}_]`; 10.43 added marks and connector punctuation), and
///   become look-arounds over the class above otherwise (and for the `regex` module flavour).
/// - With `RegexFlags.regexModule` (nltk ≥ 3.10 compiles its patterns with the `regex` module)
///   `\w` is Unicode's word class (Alphabetic, marks, `Nd`, `Pc`, joiners) and `\s` White_Space.
/// - `\B` gets `(?!\A\z)` in front: Python's never matches in an empty text (until 3.14).
/// - `\Z` (end of text only) becomes PCRE2's `\z`; `\v` is VT (U+000B), not a class;
///   `\uXXXX`, `\UXXXXXXXX`, `\xXX` and octal escapes become `\x{…}`; every other literal that is
///   not a letter or digit is written `\x{…}`, so nothing is special by accident.
/// - `{,n}` becomes `{0,n}`; a `{` that does not open a quantifier is a literal, as in Python.
/// - Numbered and named back-references and conditionals become `\g{N}` and `(?(N)…)`, and
///   named groups plain groups: names are resolved here, so PCRE2's naming rules never apply.
/// - Verbose mode (`(?x)`, also scoped) is applied here: whitespace and `#` comments outside
///   classes are dropped.
/// - `[` inside a class is a literal (PCRE2 would read `[:alpha:]`).
/// Refused, as Python refuses them: bad escapes of ASCII letters and digits, references to
/// undefined or open groups, unknown `(?…)` extensions (PCRE2's `(*VERB)`, `(?R)`, `(?C)`,
/// `\p`, `\K`…), global flags after the start, repeated quantifiers ("multiple repeat") and
/// quantifiers with nothing to repeat. Also refused: the flags `a` and `L` and `\N{…}` escapes.
/// Left to PCRE2 (and reported with its message): look-behind width, quantifier ranges.
/// Known difference: case-insensitive matching is PCRE2's Unicode simple case folding, in which
/// İ (U+0130) and ı (U+0131) have no partner; Python's `re.IGNORECASE` equates both with i.
struct PythonPatternTranslator {
    /// The PCRE2 pattern, and for each of its code units the offset in the Python pattern it came from.
    struct Translation {
        var units: [UInt32] = []
        var sourceOffsets: [Int] = []
        var groupCount = 0
    }

    private let source: Scalars
    private let module: Bool
    private let nativeWordBoundary: Bool
    private var i = 0
    private var output = Translation()
    private var groupNames: [String: Int] = [:]
    /// Groups still open, innermost last: where their `(` is, their capture number (if any) and
    /// whether verbose mode was on outside them.
    private var openGroups: [(offset: Int, capture: Int?, verboseOutside: Bool)] = []
    private var verbose = false
    /// Whether the last item can take a quantifier; `lastWasQuantifier` tells "multiple repeat" apart.
    private var quantifiable = false
    private var lastWasQuantifier = false
    /// True until the first item other than a global flag group.
    private var atStart = true

    /// `nativeWordBoundary`: whether PCRE2's own `\b` has Python's word class (see above).
    static func translate(_ pattern: Scalars, flags: RegexFlags, nativeWordBoundary: Bool) throws(RegexSyntaxError) -> Translation {
        var translator = PythonPatternTranslator(
            source: pattern, module: flags.contains(.regexModule),
            nativeWordBoundary: nativeWordBoundary && !flags.contains(.regexModule))
        try translator.run()
        return translator.output
    }

    private init(source: Scalars, module: Bool, nativeWordBoundary: Bool) {
        self.source = source
        self.module = module
        self.nativeWordBoundary = nativeWordBoundary
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? { i + ahead < source.count ? source[i + ahead] : nil }

    private mutating func emit(_ text: String, from offset: Int) {
        for scalar in text.unicodeScalars {
            output.units.append(scalar.value)
            output.sourceOffsets.append(offset)
        }
    }

    private mutating func emit(_ scalar: Unicode.Scalar, from offset: Int) {
        output.units.append(scalar.value)
        output.sourceOffsets.append(offset)
    }

    private func error(_ message: String, at offset: Int) -> RegexSyntaxError {
        RegexSyntaxError(message: message, offset: offset)
    }

    /// An item that a quantifier may follow was emitted.
    private mutating func itemDone() {
        quantifiable = true
        lastWasQuantifier = false
        atStart = false
    }

    /// An assertion (`^`, `$`, `\b`…) or `|` was emitted: Python refuses a quantifier after it.
    private mutating func unrepeatableDone() {
        quantifiable = false
        lastWasQuantifier = false
        atStart = false
    }

    private mutating func run() throws(RegexSyntaxError) {
        while let c = peek() {
            let start = i
            if verbose && PythonText.isASCIIWhitespace(c) {
                i += 1
                continue
            }
            if verbose && c == "#" {
                while let d = peek(), d != "\n" { i += 1 }
                continue
            }
            switch c {
            case "\\":
                try translateEscape()
            case "[":
                try translateClass()
                itemDone()
            case "(":
                try openGroup()
            case ")":
                guard let group = openGroups.popLast() else { throw error("unbalanced parenthesis", at: start) }
                i += 1
                emit(")", from: start)
                verbose = group.verboseOutside
                itemDone()
            case "|":
                i += 1
                emit("|", from: start)
                unrepeatableDone()
            case "*", "+", "?":
                i += 1
                try quantifier(String(c), at: start)
            case "{":
                if let bounds = countedRepetition() {
                    try quantifier(bounds, at: start)
                } else {
                    i += 1
                    emitLiteral(c, from: start)
                    itemDone()
                }
            case ".":
                i += 1
                emit(".", from: start)
                itemDone()
            case "^", "$":
                i += 1
                emit(c, from: start)
                unrepeatableDone()
            default:
                i += 1
                emitLiteral(c, from: start)
                itemDone()
            }
        }
        if let innermost = openGroups.last {
            throw error("missing ), unterminated subpattern", at: innermost.offset)
        }
    }

    // MARK: Literals

    /// A literal character: letters, digits and non-ASCII characters as they are, anything else
    /// as `\x{…}` so that no character is special to PCRE2.
    private mutating func emitLiteral(_ c: Unicode.Scalar, from offset: Int) {
        if c.value >= 0x80 || (PythonText.isASCIIWord(c.value) && c != "_") {
            emit(c, from: offset)
        } else {
            emit("\\x{" + String(c.value, radix: 16) + "}", from: offset)
        }
    }

    // MARK: Quantifiers

    /// `{m}`, `{m,}`, `{,n}`, `{m,n}` at `i` as PCRE2 quantifier text, consuming it; nil (and
    /// nothing consumed) when the brace is a literal, as Python reads it.
    private mutating func countedRepetition() -> String? {
        var j = i + 1
        func digits(_ j: inout Int) -> String {
            var text = ""
            while j < source.count, ("0"..."9").contains(source[j]) {
                text.unicodeScalars.append(source[j])
                j += 1
            }
            return text
        }
        let low = digits(&j)
        var high: String?
        if j < source.count && source[j] == "," {
            j += 1
            high = digits(&j)
        }
        guard j < source.count, source[j] == "}", !(low.isEmpty && high == nil) else { return nil }
        i = j + 1
        guard let high else { return "{\(low)}" }
        return "{\(low.isEmpty ? "0" : low),\(high)}"
    }

    private mutating func quantifier(_ text: String, at start: Int) throws(RegexSyntaxError) {
        if lastWasQuantifier { throw error("multiple repeat", at: start) }
        guard quantifiable else { throw error("nothing to repeat", at: start) }
        if text.hasPrefix("{") {
            let bounds = text.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
            if bounds.count == 2, let low = Int(bounds[0]), let high = Int(bounds[1]), low > high {
                throw error("min repeat greater than max repeat", at: start + 1)
            }
        }
        emit(text, from: start)
        // Lazy (`*?`) and possessive (`*+`, Python 3.11) forms: PCRE2 spells them the same way.
        if let mode = peek(), mode == "?" || mode == "+" {
            emit(mode, from: i)
            i += 1
        }
        quantifiable = false
        lastWasQuantifier = true
    }

    // MARK: Escapes

    /// The class body (inside `[…]`) of `\w`, `\d` or `\s`, in this pattern's flavour.
    private func classBody(_ letter: Unicode.Scalar) -> String {
        switch letter {
        case "d": return #"\p{Nd}"#
        case "w": return module ? #"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\x{200c}\x{200d}"# : #"\p{L}\p{N}_"#
        default:
            let unicodeSpaces = #"\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}"#
            return (module ? #"\t-\r "# : #"\t-\r\x{1c}- "#) + unicodeSpaces
        }
    }

    /// `\w`-style set letters and whether they are negated (`W`, `D`, `S`).
    private static func setLetter(_ c: Unicode.Scalar) -> (Unicode.Scalar, negated: Bool)? {
        switch c {
        case "w", "d", "s": return (c, false)
        case "W": return ("w", true)
        case "D": return ("d", true)
        case "S": return ("s", true)
        default: return nil
        }
    }

    private var wordBoundary: String {
        if nativeWordBoundary { return #"\b"# }
        let word = "[" + classBody("w") + "]"
        return "(?:(?<=\(word))(?!\(word))|(?<!\(word))(?=\(word)))"
    }

    private var notWordBoundary: String {
        let notEmptyText = #"(?!\A\z)"#
        if nativeWordBoundary { return notEmptyText + #"\B"# }
        let word = "[" + classBody("w") + "]"
        return notEmptyText + "(?:(?<=\(word))(?=\(word))|(?<!\(word))(?!\(word)))"
    }

    private mutating func translateEscape() throws(RegexSyntaxError) {
        let start = i
        guard let c = peek(1) else { throw error("bad escape (end of pattern)", at: start) }
        if let (letter, negated) = Self.setLetter(c) {
            i += 2
            emit((negated ? "[^" : "[") + classBody(letter) + "]", from: start)
            itemDone()
            return
        }
        switch c {
        case "b", "B":
            i += 2
            emit(c == "b" ? wordBoundary : notWordBoundary, from: start)
            unrepeatableDone()
        case "A":
            i += 2
            emit(#"\A"#, from: start)
            unrepeatableDone()
        case "Z":
            i += 2
            emit(#"\z"#, from: start)
            unrepeatableDone()
        case "1"..."9":
            try numberedEscape(start)
        default:
            i += 1
            let scalar = try characterEscape(start, inClass: false)
            emitLiteral(scalar, from: start)
            itemDone()
        }
    }

    /// `\1`…`\99` (a group reference) or three octal digits (a character), as Python decides.
    private mutating func numberedEscape(_ start: Int) throws(RegexSyntaxError) {
        i += 1
        var digits = String(source[i])
        i += 1
        if let next = peek(), ("0"..."9").contains(next) {
            digits.unicodeScalars.append(next)
            i += 1
            if let third = peek(), ("0"..."7").contains(third),
                digits.unicodeScalars.allSatisfy({ ("0"..."7").contains($0) })
            {
                digits.unicodeScalars.append(third)
                i += 1
                let value = UInt32(digits, radix: 8) ?? 0
                guard value <= 0o377, let scalar = Unicode.Scalar(value) else {
                    throw error("octal escape value \\\(digits) outside of range 0-0o377", at: start)
                }
                emitLiteral(scalar, from: start)
                itemDone()
                return
            }
        }
        let group = Int(digits) ?? 0
        try reference(group, at: start, describedAs: "invalid group reference \(group)")
    }

    /// A back-reference to group `group`, which must be closed already (Python's rule).
    private mutating func reference(_ group: Int, at start: Int, describedAs problem: String) throws(RegexSyntaxError) {
        guard group >= 1, group <= output.groupCount else { throw error(problem, at: start + 1) }
        if openGroups.contains(where: { $0.capture == group }) { throw error("cannot refer to an open group", at: start) }
        emit("\\g{\(group)}", from: start)
        itemDone()
    }

    /// The character a non-class escape stands for; `i` is at the letter after the backslash.
    private mutating func characterEscape(_ start: Int, inClass: Bool) throws(RegexSyntaxError) -> Unicode.Scalar {
        guard let c = peek() else { throw error("bad escape (end of pattern)", at: start) }
        i += 1
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "f": return "\u{0C}"
        case "v": return "\u{0B}"
        case "a": return "\u{07}"
        case "b" where inClass: return "\u{08}"
        case "x": return try hexEscape(2, start)
        case "u": return try hexEscape(4, start)
        case "U": return try hexEscape(8, start)
        case "0"..."7" where inClass || c == "0":
            var value = c.value - 48
            var count = 1
            while count < 3, let d = peek(), ("0"..."7").contains(d) {
                value = value * 8 + d.value - 48
                i += 1
                count += 1
            }
            guard value <= 0o377, let scalar = Unicode.Scalar(value) else {
                throw error("octal escape value outside of range 0-0o377", at: start)
            }
            return scalar
        default:
            if c.isASCII && (PythonText.isASCIIWord(c.value) && c != "_") {
                throw error("bad escape \\\(c)", at: start)
            }
            return c
        }
    }

    private mutating func hexEscape(_ count: Int, _ start: Int) throws(RegexSyntaxError) -> Unicode.Scalar {
        var value: UInt32 = 0
        for k in 0..<count {
            guard let d = peek(k), d.isASCII, let digit = UInt32(String(d), radix: 16) else {
                throw error("incomplete escape \\\(String(scalars: source[(start + 1)..<min(source.count, i + k)]))", at: start)
            }
            value = value * 16 + digit
        }
        i += count
        guard let scalar = Unicode.Scalar(value) else {
            throw error("bad escape \\\(String(scalars: source[(start + 1)..<i]))", at: start)
        }
        return scalar
    }

    // MARK: Classes

    /// `[…]`. Sets such as `\W` cannot be nested in a PCRE2 class, so a class holding one becomes
    /// an alternation: `[a\W]` → `(?:[a]|[^\w…])`, and negated, `(?!…)` then any character.
    private mutating func translateClass() throws(RegexSyntaxError) {
        let open = i
        i += 1
        var negated = false
        if peek() == "^" {
            negated = true
            i += 1
        }
        var body = ""
        var negatedSets: [String] = []
        var first = true
        while true {
            guard let c = peek() else { throw error("unterminated character set", at: open) }
            if c == "]" && !first {
                i += 1
                break
            }
            first = false
            let itemStart = i
            var low: Unicode.Scalar
            if c == "\\" {
                guard let e = peek(1) else { throw error("unterminated character set", at: open) }
                if let (letter, setNegated) = Self.setLetter(e) {
                    i += 2
                    if peek() == "-", let next = peek(1), next != "]" {
                        throw error("bad character range \\\(e)-\(next)", at: itemStart)
                    }
                    if setNegated { negatedSets.append("[^" + classBody(letter) + "]") } else { body += classBody(letter) }
                    continue
                }
                if ("1"..."9").contains(e) && !("1"..."7").contains(e) {
                    throw error("bad escape \\\(e)", at: itemStart)
                }
                i += 1
                low = try characterEscape(itemStart, inClass: true)
            } else {
                i += 1
                low = c
            }
            var high = low
            if peek() == "-", let next = peek(1), next != "]" {
                i += 1
                if next == "\\" {
                    guard let e = peek(1) else { throw error("unterminated character set", at: open) }
                    if Self.setLetter(e) != nil {
                        throw error("bad character range \(Character(low))-\\\(e)", at: itemStart)
                    }
                    i += 1
                    high = try characterEscape(i - 1, inClass: true)
                } else {
                    i += 1
                    high = next
                }
                guard high.value >= low.value else {
                    throw error("bad character range \(Character(low))-\(Character(high))", at: itemStart)
                }
            }
            body += Self.classLiteral(low)
            if high != low { body += "-" + Self.classLiteral(high) }
        }
        let positive = body.isEmpty ? nil : "[" + body + "]"
        let text: String
        if negatedSets.isEmpty {
            text = (negated ? "[^" : "[") + body + "]"
        } else {
            let union = "(?:" + ([positive].compactMap { $0 } + negatedSets).joined(separator: "|") + ")"
            text = negated ? "(?:(?!" + union + #")[\x{0}-\x{10ffff}])"# : union
        }
        emit(text, from: open)
    }

    /// A character inside a PCRE2 class: letters and digits as they are, everything else `\x{…}`.
    private static func classLiteral(_ c: Unicode.Scalar) -> String {
        c.value >= 0x80 || (PythonText.isASCIIWord(c.value) && c != "_") ? String(c) : "\\x{" + String(c.value, radix: 16) + "}"
    }

    // MARK: Groups

    private mutating func openGroup() throws(RegexSyntaxError) {
        let start = i
        i += 1
        guard peek() == "?" else {
            output.groupCount += 1
            push(capture: output.groupCount, at: start)
            emit("(", from: start)
            return
        }
        i += 1
        guard let kind = peek() else { throw error("unexpected end of pattern", at: i) }
        switch kind {
        case ":", ">", "=", "!":
            i += 1
            push(capture: nil, at: start)
            emit("(?" + String(kind), from: start)
        case "<" where peek(1) == "=" || peek(1) == "!":
            i += 2
            push(capture: nil, at: start)
            emit("(?<" + String(source[i - 1]), from: start)
        case "#":
            while let d = peek(), d != ")" { i += 1 }
            guard peek() == ")" else { throw error("missing ), unterminated comment", at: start) }
            i += 1
        case "P":
            i += 1
            if peek() == "<" {
                i += 1
                let name = try groupName(until: ">", start: start)
                guard groupNames[name] == nil else { throw error("redefinition of group name '\(name)'", at: start + 4) }
                output.groupCount += 1
                groupNames[name] = output.groupCount
                push(capture: output.groupCount, at: start)
                emit("(", from: start)
            } else if peek() == "=" {
                i += 1
                let name = try groupName(until: ")", start: start)
                guard let group = groupNames[name] else { throw error("unknown group name '\(name)'", at: start + 4) }
                try reference(group, at: start, describedAs: "unknown group name '\(name)'")
            } else {
                throw error("unknown extension ?P" + (peek().map { String($0) } ?? ""), at: start + 1)
            }
        case "(":
            i += 1
            let reference = try groupName(until: ")", start: start)
            let group: Int
            if let number = Int(reference) {
                guard number >= 1 else { throw error("bad group number", at: start + 3) }
                group = number
            } else if let named = groupNames[reference] {
                group = named
            } else {
                throw error("unknown group name '\(reference)'", at: start + 3)
            }
            guard group <= output.groupCount else { throw error("invalid group reference \(group)", at: start + 3) }
            push(capture: nil, at: start)
            emit("(?(\(group))", from: start)
        default:
            try flagGroup(start)
        }
    }

    private mutating func push(capture: Int?, at start: Int) {
        openGroups.append((start, capture, verbose))
        quantifiable = false
        lastWasQuantifier = false
        atStart = false
    }

    /// A group name (a Python identifier) up to `terminator`, which is consumed.
    private mutating func groupName(until terminator: Unicode.Scalar, start: Int) throws(RegexSyntaxError) -> String {
        var name = ""
        while let c = peek(), c != terminator {
            name.unicodeScalars.append(c)
            i += 1
        }
        guard peek() == terminator else { throw error("missing \(Character(terminator)), unterminated name", at: start) }
        i += 1
        guard !name.isEmpty else { throw error("missing group name", at: start) }
        let isIdentifier = name.unicodeScalars.enumerated().allSatisfy { index, c in
            c == "_" || PythonText.isAlpha(c) || (index > 0 && PythonText.isDecimalDigit(c))
        }
        guard isIdentifier || Int(name) != nil else { throw error("bad character in group name '\(name)'", at: start) }
        return name
    }

    /// `(?imsx)` (global: only at the start of the pattern) or `(?imsx-imsx:…)` (scoped).
    private mutating func flagGroup(_ start: Int) throws(RegexSyntaxError) {
        var on = "", off = ""
        var negative = false
        var verboseOn = false, verboseOff = false
        while let c = peek(), c != ":" && c != ")" {
            switch c {
            case "-" where !negative: negative = true
            case "i", "m", "s": if negative { off.unicodeScalars.append(c) } else { on.unicodeScalars.append(c) }
            case "x": if negative { verboseOff = true } else { verboseOn = true }
            case "u" where !negative: break
            case "a", "L": throw error("flag '\(c)' is not supported (matching is always Unicode-aware)", at: i)
            default:
                if on.isEmpty && off.isEmpty && !negative && !verboseOn { throw error("unknown extension ?\(c)", at: start + 1) }
                throw error("unknown flag", at: i)
            }
            i += 1
        }
        guard let end = peek() else { throw error("missing -, : or )", at: i) }
        i += 1
        if end == ")" {
            guard !negative else { throw error("missing :", at: i - 1) }
            guard atStart else { throw error("global flags not at the start of the expression", at: start) }
            if verboseOn { verbose = true }
            if !on.isEmpty { emit("(?" + on + ")", from: start) }
            return
        }
        push(capture: nil, at: start)
        if verboseOn { verbose = true }
        if verboseOff { verbose = false }
        emit("(?" + on + (off.isEmpty ? "" : "-" + off) + ":", from: start)
    }
}
