/// A compiled pattern with Python `re` semantics (code-point positions, Unicode `\w \d \s`,
/// Python's `^ $ \b`, leftmost-first alternation, lazy quantifiers, `findall`/`sub` iteration
/// over empty matches), run by a linear-time engine under a deterministic step budget.
///
/// Why an engine of our own:
/// - Swift `Regex` backtracks and has no limiter or cancellation check (swift-experimental-
///   string-processing issue #262 is still open): `(a+)+$` on "aaa…ab" cannot be stopped, and a
///   thread left running it would burn a core forever.
/// - `NSRegularExpression` (ICU) on Linux exposes no time or step limit (`uregex_setTimeLimit` is
///   not surfaced); `.reportProgress` does call back during a long match and `stop` ends it
///   (measured: stopped after 0.2 s), but the limit is wall-clock (verdicts would depend on
///   machine load) and ICU's `\w`, `\s`, `.` and `$` differ from Python's, which IFEval needs.
/// - This engine has no backtracking features (back-references, look-around, atomic groups and
///   possessive quantifiers are refused at construction for user patterns), so matching is
///   O(text × pattern) by construction: a bounded backtracker with a visited bitmap (RE2's
///   BitState) for small inputs, a Pike VM otherwise. Counted repetitions are capped (1000) and
///   programs limited to 20,000 instructions, and every search also runs under a step budget
///   (`defaultStepBudget`) that turns a pathological size × pattern product into an error
///   verdict ("regex exceeded its budget") instead of a stall. No thread is ever left running.
/// - Known difference from Python: nested quantifiers over sub-patterns that can match empty
///   (e.g. `(a*)*b`, `(x?|y)*`) may choose different empty iterations, so match boundaries of
///   such patterns can differ; whether a match exists does not.
struct PythonRegex: Sendable {
    let pattern: String
    let flags: RegexFlags
    let program: RegexProgram
    let groupCount: Int
    let groupNames: [String: Int]
    /// Set when the pattern is a plain string (optionally caseless, optionally within `\b`).
    let literal: LiteralMatcher?

    /// Steps one search may take before it is abandoned: enough for any sane pattern over a
    /// megabyte of text (about a second of work at worst).
    static let defaultStepBudget = 200_000_000

    init(_ pattern: String, flags: RegexFlags = [], allowLookaround: Bool = false,
         instructionLimit: Int = RegexCompiler.defaultInstructionLimit) throws(RegexSyntaxError) {
        let parsed = try RegexParser.parse(pattern, flags: flags, allowLookaround: allowLookaround)
        self.pattern = pattern
        self.flags = flags
        self.program = try RegexCompiler.compile(parsed, instructionLimit: instructionLimit)
        self.groupCount = parsed.groupCount
        self.groupNames = parsed.groupNames
        self.literal = LiteralMatcher(parsed.root)
    }

    /// `re.escape`: a pattern that matches `text` literally.
    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars {
            if c.isASCII && !PythonText.isWord(c) && c != "_" {
                out.append("\\")
            }
            out.append(c)
        }
        return String(out)
    }

    /// `re.search`: the first match at or after `start`.
    func search(_ text: Scalars, from start: Int = 0, budget: Int = defaultStepBudget) throws(RegexBudgetExceeded) -> RegexMatch? {
        if let literal {
            return literal.firstMatch(in: text, from: start).map { RegexMatch(slots: [$0.lowerBound, $0.upperBound]) }
        }
        var budget = budget
        return try text.withUnsafeBufferPointer { buffer throws(RegexBudgetExceeded) in
            try RegexEngine.run(program, buffer, from: start, anchored: false, budget: &budget)?.match
        }
    }

    /// `re.match`: a match starting exactly at `start`.
    func matchPrefix(_ text: Scalars, at start: Int = 0, budget: Int = defaultStepBudget) throws(RegexBudgetExceeded) -> RegexMatch? {
        var budget = budget
        return try text.withUnsafeBufferPointer { buffer throws(RegexBudgetExceeded) in
            try RegexEngine.run(program, buffer, from: start, anchored: true, budget: &budget)?.match
        }
    }

    /// `re.finditer`: successive non-overlapping matches; after an empty match the next one may
    /// not be empty at the same position (Python 3.7+ rules).
    func matches(_ text: Scalars, budget: Int = defaultStepBudget, limit: Int = .max) throws(RegexBudgetExceeded) -> [RegexMatch] {
        if let literal {
            var found: [RegexMatch] = []
            var position = 0
            while found.count < limit, let range = literal.firstMatch(in: text, from: position) {
                found.append(RegexMatch(slots: [range.lowerBound, range.upperBound]))
                position = range.upperBound
            }
            return found
        }
        return try text.withUnsafeBufferPointer { buffer throws(RegexBudgetExceeded) in
            let searcher = RegexSearcher(program, buffer, budget: budget)
            var found: [RegexMatch] = []
            var position = 0
            var rejectEmptyAt: Int?
            while position <= buffer.count, found.count < limit,
                  let (match, _) = try searcher.search(from: position, anchored: false, rejectEmptyAt: rejectEmptyAt) {
                found.append(match)
                position = match.range.upperBound
                rejectEmptyAt = match.range.isEmpty ? position : nil
            }
            return found
        }
    }

    /// `len(re.findall(...))`.
    func count(in text: Scalars, budget: Int = defaultStepBudget) throws(RegexBudgetExceeded) -> Int {
        try matches(text, budget: budget).count
    }

    /// `re.sub(pattern, template, text)`; `template` uses `\1` and `\g<0>` group references.
    func substitute(_ text: Scalars, with template: ReplacementTemplate, budget: Int = defaultStepBudget) throws(RegexBudgetExceeded) -> Scalars {
        let found = try matches(text, budget: budget)
        guard !found.isEmpty else { return text }
        var out = Scalars()
        out.reserveCapacity(text.count + found.count * 4)
        var last = 0
        for match in found {
            out.append(contentsOf: text[last..<match.range.lowerBound])
            for piece in template.pieces {
                switch piece {
                case .literal(let s): out.append(contentsOf: s)
                case .group(let g): if let r = match.group(g) { out.append(contentsOf: text[r]) }
                }
            }
            last = match.range.upperBound
        }
        out.append(contentsOf: text[last...])
        return out
    }
}

/// A `re.sub` replacement: literal text and group references (`\1`, `\g<2>`, `\g<0>`).
struct ReplacementTemplate: Sendable {
    enum Piece: Sendable { case literal(Scalars), group(Int) }
    let pieces: [Piece]

    init(_ template: String) {
        var pieces: [Piece] = []
        var literal = Scalars()
        let s = template.scalars
        var i = 0
        while i < s.count {
            if s[i] == "\\", i + 1 < s.count {
                let c = s[i + 1]
                if let d = Int(String(c)), d > 0 {
                    if !literal.isEmpty { pieces.append(.literal(literal)); literal = [] }
                    pieces.append(.group(d))
                    i += 2
                    continue
                }
                if c == "g", i + 2 < s.count, s[i + 2] == "<", let close = s[(i + 3)...].firstIndex(of: ">"),
                   let g = Int(String(scalars: s[(i + 3)..<close])) {
                    if !literal.isEmpty { pieces.append(.literal(literal)); literal = [] }
                    pieces.append(.group(g))
                    i = close + 1
                    continue
                }
                if c == "n" { literal.append("\n"); i += 2; continue }
                if c == "\\" { literal.append("\\"); i += 2; continue }
            }
            literal.append(s[i])
            i += 1
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }
}
