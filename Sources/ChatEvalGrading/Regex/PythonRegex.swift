internal import CPCRE2
import Synchronization

/// A compiled pattern with Python `re` semantics, run by PCRE2 (see `PythonPatternTranslator`
/// for the translation, `RegexLimits` for what one operation may use).
///
/// Matching follows Python on code points: positions count code points (PCRE2 runs on UTF-32,
/// so its offsets are Python's), `^` also matches after a final `\n` with MULTILINE
/// (PCRE2_ALT_CIRCUMFLEX), `$` matches before a final `\n`, `.` excludes only `\n`, and case-
/// insensitive matching uses Unicode simple case folding. `findall`/`sub` iterate as Python 3.7+
/// does: after an empty match the next one may not be empty at the same position.
///
/// Patterns are compiled once per process and shared (`PatternCache`): a check built anew for
/// every turn finds its pattern compiled.
struct PythonRegex: Sendable {
    let code: PCRE2Code

    /// Compiles `pattern`. `linearTime` is for the library's own patterns that are known to run
    /// in time linear in the text (NLTK's tokenizer rules): they are JIT-compiled and run without
    /// the step budget, which would cost them half their speed; PCRE2's own limits still apply.
    init(_ pattern: String, flags: RegexFlags = [], linearTime: Bool = false) throws(RegexSyntaxError) {
        code = try PatternCache.shared.code(for: PatternCache.Key(pattern: pattern.scalars, flags: flags, linearTime: linearTime))
    }

    /// `re.escape`: a pattern matching `text` literally (ASCII punctuation and spaces escaped).
    static func escape(_ text: Scalars) -> String {
        var pattern = String.UnicodeScalarView()
        for c in text {
            if c.isASCII && !PythonText.isASCIIWord(c.value) { pattern.append("\\") }
            pattern.append(c)
        }
        return String(pattern)
    }

    /// `re.search`: the first match at or after `start`.
    func search(_ text: Scalars, from start: Int = 0, limits: RegexLimits = .standard) throws(PCRE2Error) -> RegexMatch? {
        let matcher = try RegexMatcher(limits: limits)
        return try search(text, from: start, with: matcher)
    }

    func search(_ text: Scalars, from start: Int = 0, with matcher: RegexMatcher) throws(PCRE2Error) -> RegexMatch? {
        code.beginOperation()
        matcher.beginOperation()
        defer { matcher.endOperation() }
        return try text.withUnsafeBufferPointer { buffer throws(PCRE2Error) in
            try matcher.match(code, buffer, from: start) ? RegexMatch(groups: matcher.groups) : nil
        }
    }

    /// `re.finditer`: successive non-overlapping matches, at most `limit`.
    func matches(_ text: Scalars, limits: RegexLimits = .standard, limit: Int = .max) throws(PCRE2Error) -> [RegexMatch] {
        var found: [RegexMatch] = []
        try forEachMatch(in: text, with: try RegexMatcher(limits: limits)) { matcher in
            found.append(RegexMatch(groups: matcher.groups))
            return found.count < limit
        }
        return found
    }

    /// Calls `body` for each match of `re.finditer` order, as one operation; `body` reads the
    /// match from the matcher and returns false to stop.
    func forEachMatch(in text: Scalars, with matcher: RegexMatcher, _ body: (RegexMatcher) -> Bool) throws(PCRE2Error) {
        code.beginOperation()
        matcher.beginOperation()
        defer { matcher.endOperation() }
        try text.withUnsafeBufferPointer { buffer throws(PCRE2Error) in
            var position = 0
            var afterEmpty = false
            while position <= buffer.count, try matcher.match(code, buffer, from: position, notEmptyAtStart: afterEmpty),
                let range = matcher.group(0)
            {
                guard body(matcher) else { return }
                position = range.upperBound
                afterEmpty = range.isEmpty
            }
        }
    }

    /// `re.sub(pattern, template, text)`; `template` uses `\1` and `\g<0>` group references.
    func substitute(_ text: Scalars, with template: ReplacementTemplate, using matcher: RegexMatcher) throws(PCRE2Error) -> Scalars {
        var out = Scalars()
        var matched = false
        var last = 0
        try forEachMatch(in: text, with: matcher) { matcher in
            guard let range = matcher.group(0) else { return false }
            if !matched {
                matched = true
                out.reserveCapacity(text.count + 16)
            }
            out.append(contentsOf: text[last..<range.lowerBound])
            for piece in template.pieces {
                switch piece {
                case .literal(let s): out.append(contentsOf: s)
                case .group(let g): if let r = matcher.group(g) { out.append(contentsOf: text[r]) }
                }
            }
            last = range.upperBound
            return true
        }
        guard matched else { return text }
        out.append(contentsOf: text[last...])
        return out
    }
}
