/// A port of NLTK's `PunktSentenceTokenizer.span_tokenize` (nltk 3.9–3.10, `punkt_tab`
/// parameters), which IFEval uses through `sent_tokenize` to count sentences.
///
/// NLTK's regexes are replaced by equivalent hand-written scanners over code points (period
/// contexts, the word tokenizer, boundary realignment). nltk ≥ 3.10 compiles them with the
/// `regex` module, so `\s` and `\w` there follow Unicode (`isModuleSpace`, `isModuleWord`),
/// while `str.strip`, `str.lower`, `str.isupper` and `string.whitespace` keep Python's
/// semantics. Boundaries agree with NLTK on any text, including its quirks (e.g. "e.g." is not
/// an abbreviation of the English model).
struct PunktSentenceTokenizer: Sendable {
    let parameters: PunktParameters

    static let english = PunktSentenceTokenizer(parameters: .english)

    /// The text as the tokenizer reads it: slices of one buffer, which copy without reference
    /// counting (tokens of `ArraySlice`s spent a quarter of sentence counting retaining and
    /// releasing the answer's storage).
    typealias Text = Slice<UnsafeBufferPointer<Unicode.Scalar>>

    /// Sentences, as code-point ranges of `text` (NLTK's `span_tokenize` with realignment).
    func sentenceSpans(_ text: Scalars) -> [Range<Int>] {
        text.withUnsafeBufferPointer { realignBoundaries($0, slicesFromText($0)) }
    }

    /// `len(sent_tokenize(text))`.
    func countSentences(_ text: Scalars) -> Int { sentenceSpans(text).count }

    // MARK: Orthographic flags

    private static let orthoBeginUpper = 1 << 1, orthoMidUpper = 1 << 2, orthoUnknownUpper = 1 << 3
    private static let orthoBeginLower = 1 << 4, orthoMidLower = 1 << 5, orthoUnknownLower = 1 << 6
    private static let orthoUpper = orthoBeginUpper | orthoMidUpper | orthoUnknownUpper
    private static let orthoLower = orthoBeginLower | orthoMidLower | orthoUnknownLower

    // MARK: Tokens

    struct Token {
        let text: Text
        let periodFinal: Bool
        var sentenceBreak = false
        var abbreviation = false
        var ellipsis = false

        init(_ text: Text) {
            self.text = text
            periodFinal = text.last == "."
        }

        /// `tok.lower()`, or `##number##` for numeric tokens (`^-?[.,]?\d[\d,.-]*\.?$`).
        var type: String { Token.type(of: text) }

        static func type(of text: Text) -> String {
            isNumeric(text) ? "##number##" : PythonText.lowerString(text)
        }

        /// Numeric test on the original token: lowercasing changes neither digits nor `-.,`,
        /// nor turns any character into one of them.
        private static func isNumeric(_ s: Text) -> Bool {
            var i = s.startIndex
            if i < s.endIndex && s[i] == "-" { i += 1 }
            if i < s.endIndex && (s[i] == "." || s[i] == ",") { i += 1 }
            guard i < s.endIndex, PythonText.isDecimalDigit(s[i]) else { return false }
            i += 1
            while i < s.endIndex, PythonText.isDecimalDigit(s[i]) || s[i] == "," || s[i] == "." || s[i] == "-" { i += 1 }
            return i == s.endIndex
        }

        /// True for a numeric token, whose type is `##number##`.
        var isNumeric: Bool { Token.isNumeric(text) }

        /// The model's entry for `typeWithoutPeriod` (`withoutPeriod`) or `type`, read without
        /// making either a String.
        func entry(_ types: PunktTypeTable, withoutPeriod: Bool) -> PunktTypeTable.Entry? {
            if isNumeric { return types.numberEntry }
            if withoutPeriod && text.count > 1 && text.last == "." { return types.entry(lowercasing: text.dropLast()) }
            return types.entry(lowercasing: text)
        }

        /// `type` without a final period (lowercasing neither adds nor removes periods, and never
        /// shortens a token, so this can be computed on the original token).
        var typeWithoutPeriod: String {
            if Token.isNumeric(text) { return "##number##" }
            return text.count > 1 && text.last == "." ? PythonText.lowerString(text.dropLast()) : PythonText.lowerString(text)
        }

        var typeWithoutSentencePeriod: String { sentenceBreak ? typeWithoutPeriod : type }

        var firstUpper: Bool { text.first.map(PythonText.isUpperChar) ?? false }
        var firstLower: Bool { text.first.map(PythonText.isLowerChar) ?? false }

        /// `\.\.+$`: two or more periods and nothing else.
        var isEllipsis: Bool { text.count >= 2 && text.allSatisfy { $0 == "." } }

        /// `[^\W\d]\.$`: one word character that is not a digit, then a period.
        var isInitial: Bool {
            text.count == 2 && text.last == "." && PythonText.isModuleWord(text[text.startIndex])
                && !PythonText.isDecimalDigit(text[text.startIndex])
        }
    }

    // MARK: Word tokenizer (PunktLanguageVars.word_tokenize)

    /// `)";}]*:@'({[` and curly quotes, guillemets, `?` and `!`: characters that cannot be inside words.
    private static func isNonWord(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case ")", "\"", ";", "}", "]", "*", ":", "@", "'", "(", "{", "[",
            "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{AB}", "\u{BB}", "?", "!":
            return true
        default: return false
        }
    }

    /// Characters that cannot start a word token: `("`{[:;&#*@)}]-,`.
    private static func cannotStartWord(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "(", "\"", "`", "{", "[", ":", ";", "&", "#", "*", "@", ")", "}", "]", "-", ",": return true
        default: return false
        }
    }

    /// Length of the multi-character punctuation at `p` (`-{2,}`, `\.{2,}`, `(?:\.\s){2,}\.`), or 0.
    private static func multiCharLength(_ s: Text, at p: Int) -> Int {
        let end = s.endIndex
        guard p < end else { return 0 }
        if s[p] == "-" {
            var q = p
            while q < end && s[q] == "-" { q += 1 }
            if q - p >= 2 { return q - p }
        }
        if s[p] == "." {
            var q = p
            while q < end && s[q] == "." { q += 1 }
            if q - p >= 2 { return q - p }
            var pairs = 0
            q = p
            while q + 1 < end && s[q] == "." && PythonText.isModuleSpace(s[q + 1]) {
                pairs += 1
                q += 2
            }
            if pairs >= 2 && q < end && s[q] == "." { return 2 * pairs + 1 }
            if pairs >= 3 { return 2 * (pairs - 1) + 1 }
        }
        return 0
    }

    /// The end condition of a word token at `q`: whitespace, end of line, a non-word character,
    /// multi-character punctuation, or a comma followed by any of those.
    private static func wordEnds(_ s: Text, at q: Int) -> Bool {
        let end = s.endIndex
        if q >= end { return true }
        let c = s[q]
        if PythonText.isModuleSpace(c) || isNonWord(c) || multiCharLength(s, at: q) > 0 { return true }
        if c == "," {
            let r = q + 1
            return r >= end || PythonText.isModuleSpace(s[r]) || isNonWord(s[r]) || multiCharLength(s, at: r) > 0
        }
        return false
    }

    /// The next token of `line` at or after `p` (advancing `p` past it), or nil at the end.
    private static func nextWordToken(_ line: Text, _ p: inout Int) -> Text? {
        let end = line.endIndex
        while p < end && PythonText.isModuleSpace(line[p]) { p += 1 }
        guard p < end else { return nil }
        let start = p
        let multi = multiCharLength(line, at: p)
        if multi > 0 {
            p += multi
        } else if !cannotStartWord(line[p]) {
            p += 1
            while !wordEnds(line, at: p) { p += 1 }
        } else {
            p += 1
        }
        return line[start..<p]
    }

    private func firstPass(_ token: inout Token) {
        let t = token.text
        if t.count == 1 && (t.first == "." || t.first == "?" || t.first == "!") {
            token.sentenceBreak = true
        } else if token.isEllipsis {
            token.ellipsis = true
        } else if token.periodFinal && !(t.count >= 2 && t[t.endIndex - 2] == ".") {
            let stem = t.dropLast()
            if parameters.types.entry(lowercasing: stem)?.isAbbreviation == true {
                token.abbreviation = true
            } else if let dash = stem.lastIndex(of: "-"), parameters.types.entry(lowercasing: stem[(dash + 1)...])?.isAbbreviation == true {
                token.abbreviation = true
            } else {
                token.sentenceBreak = true
            }
        }
    }

    private enum OrthoDecision { case starter, notStarter, unknown }

    private func orthoHeuristic(_ token: Token) -> OrthoDecision {
        if token.text.count == 1, let only = token.text.first, [";", ":", ",", ".", "!", "?"].contains(only) { return .notStarter }
        let context = token.entry(parameters.types, withoutPeriod: token.sentenceBreak)?.orthographicContext ?? 0
        if token.firstUpper && (context & Self.orthoLower) != 0 && (context & Self.orthoMidUpper) == 0 { return .starter }
        if token.firstLower && ((context & Self.orthoUpper) != 0 || (context & Self.orthoBeginLower) == 0) { return .notStarter }
        return .unknown
    }

    private func secondPass(_ first: inout Token, _ next: Token) {
        guard first.periodFinal else { return }
        let types = parameters.types
        let entry = first.entry(types, withoutPeriod: true)
        // The next token's entry only where a rule reads it: most periods end a plain word, and
        // lowercasing the next token for nothing was a tenth of sentence counting.
        var nextEntry: PunktTypeTable.Entry? { next.entry(types, withoutPeriod: next.sentenceBreak) }
        let isInitial = first.isInitial
        if entry?.startsCollocation == true, parameters.collocations.contains([first.typeWithoutPeriod, next.typeWithoutSentencePeriod]) {
            first.sentenceBreak = false
            first.abbreviation = true
            return
        }
        if (first.abbreviation || first.ellipsis) && !isInitial {
            if orthoHeuristic(next) == .starter {
                first.sentenceBreak = true
                return
            }
            if next.firstUpper && nextEntry?.isSentenceStarter == true {
                first.sentenceBreak = true
                return
            }
        }
        // `type == "##number##"` in NLTK: only a numeric token has that type, since a word token
        // never starts with `#` (`cannotStartWord`).
        if isInitial || first.isNumeric {
            let decision = orthoHeuristic(next)
            if decision == .notStarter {
                first.sentenceBreak = false
                first.abbreviation = true
                return
            }
            if decision == .unknown && isInitial && next.firstUpper && (nextEntry?.orthographicContext ?? 0) & Self.orthoLower == 0 {
                first.sentenceBreak = false
                first.abbreviation = true
            }
        }
    }

    /// True when a token other than the last breaks a sentence (after both passes). Tokens are
    /// produced one at a time; the second pass of a token needs only the next one's first pass.
    private func containsSentenceBreak(_ context: Text) -> Bool {
        var previous: Token?
        var found = false
        Self.forEachWordToken(context) { slice in
            var token = Token(slice)
            firstPass(&token)
            if var first = previous {
                secondPass(&first, token)
                if first.sentenceBreak {
                    found = true
                    return false
                }
            }
            previous = token
            return true
        }
        return found
    }

    /// `_tokenize_words`: the word tokens of each non-blank line, in order, until `body` returns false.
    private static func forEachWordToken(_ text: Text, _ body: (Text) -> Bool) {
        var lineStart = text.startIndex
        while lineStart <= text.endIndex {
            var lineEnd = lineStart
            while lineEnd < text.endIndex && text[lineEnd] != "\n" { lineEnd += 1 }
            let line = text[lineStart..<lineEnd]
            if !PythonText.isBlank(line) {
                var p = line.startIndex
                while let token = nextWordToken(line, &p) {
                    if !body(token) { return }
                }
            }
            lineStart = lineEnd + 1
        }
    }

    // MARK: Candidate boundaries

    private struct PeriodContext {
        /// Offset of the `.`, `?` or `!`.
        let position: Int
        /// End of the lookahead's `after_tok`.
        let afterEnd: Int
        /// Start of `next_tok`, when the context is whitespace then a token.
        let nextTokenStart: Int?
    }

    /// `period_context_re().finditer`: a sentence-end character followed by a non-word character,
    /// or by whitespace and a token.
    /// The next one at or after `p`, which it advances past that one's sentence-end character (an array of them grew by
    /// reallocation on every answer, and a closure over the caller's state cost dynamic
    /// exclusivity checks on every context).
    private func nextPeriodContext(_ s: UnsafeBufferPointer<Unicode.Scalar>, from p: inout Int) -> PeriodContext? {
        let n = s.count
        while p < n {
            let c = s[p]
            p += 1
            guard c == "." || c == "?" || c == "!", p < n else { continue }
            let d = s[p]
            if Self.isNonWord(d) {
                return PeriodContext(position: p - 1, afterEnd: p + 1, nextTokenStart: nil)
            } else if PythonText.isModuleSpace(d) {
                var q = p
                while q < n && PythonText.isModuleSpace(s[q]) { q += 1 }
                if q < n {
                    var r = q
                    while r < n && !PythonText.isModuleSpace(s[r]) { r += 1 }
                    return PeriodContext(position: p - 1, afterEnd: r, nextTokenStart: q)
                }
            }
        }
        return nil
    }

    /// `_get_last_whitespace_index` (ASCII whitespace; 0 also when there is none).
    private static func lastWhitespaceIndex(_ s: Text) -> Int {
        var i = s.endIndex - 1
        while i >= s.startIndex {
            if PythonText.isASCIIWhitespace(s[i]) { return i - s.startIndex }
            i -= 1
        }
        return 0
    }

    /// `_slices_from_text`.
    private func slicesFromText(_ s: UnsafeBufferPointer<Unicode.Scalar>) -> [Range<Int>] {
        var slices: [Range<Int>] = []
        slices.reserveCapacity(32)  // most answers' sentences, without growing
        var lastBreak = 0
        var previousSlice = 0..<0
        var previous: PeriodContext?

        var position = 0
        while true {
            let match = nextPeriodContext(s, from: &position)
            // The previous context is decided once the next one starts past its word (or there is none).
            let start: Int, wordSlice: Range<Int>
            if let match {
                let before = s[min(previousSlice.upperBound, match.position)..<match.position]
                let whitespace = Self.lastWhitespaceIndex(before)
                start = whitespace != 0 ? whitespace + previousSlice.upperBound + 1 : previousSlice.lowerBound
                wordSlice = clamped(start, match.position)
            } else {
                (start, wordSlice) = (previousSlice.upperBound, previousSlice)
            }
            // The previous word ends where the sentence-end character starts: one contiguous slice.
            if let context = previous, previousSlice.upperBound <= start,
                containsSentenceBreak(s[previousSlice.lowerBound..<context.afterEnd])
            {
                slices.append(clamped(lastBreak, context.position + 1))
                lastBreak = context.nextTokenStart ?? (context.position + 1)
            }
            guard let match else { break }
            previous = match
            previousSlice = wordSlice
        }
        slices.append(clamped(lastBreak, PythonText.rstrip(s[...]).endIndex))
        return slices
    }

    /// A Python slice `start:stop` as a range (empty when stop ≤ start).
    private func clamped(_ start: Int, _ stop: Int) -> Range<Int> {
        start <= stop ? start..<stop : start..<start
    }

    /// `_realign_boundaries`: closing quotes and brackets after a boundary move to the sentence before.
    private func realignBoundaries(_ s: UnsafeBufferPointer<Unicode.Scalar>, _ slices: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        result.reserveCapacity(slices.count)
        var realign = 0
        for (k, slice) in slices.enumerated() {
            let first = clamped(slice.lowerBound + realign, slice.upperBound)
            guard k + 1 < slices.count else {
                if !isEmptySlice(first, s.count) { result.append(first) }
                continue
            }
            let second = slices[k + 1]
            if let (kept, end) = Self.realignmentMatch(s, second) {
                result.append(first.lowerBound..<max(first.lowerBound, second.lowerBound + kept))
                realign = end
            } else {
                realign = 0
                if !isEmptySlice(first, s.count) { result.append(first) }
            }
        }
        return result
    }

    private func isEmptySlice(_ r: Range<Int>, _ count: Int) -> Bool {
        min(r.upperBound, count) <= min(r.lowerBound, count)
    }

    private static func isClosing(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "\"", "'", ")", "]", "}", "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{AB}", "\u{BB}": return true
        default: return false
        }
    }

    /// `re_boundary_realignment.match(text[slice])`: closing characters (lazily) followed by
    /// whitespace, `--`, or a line end; returns (closing characters kept, match end) relative to the slice.
    private static func realignmentMatch(_ s: UnsafeBufferPointer<Unicode.Scalar>, _ slice: Range<Int>) -> (Int, Int)? {
        let lo = min(slice.lowerBound, s.count), hi = min(max(slice.upperBound, lo), s.count)
        var k = 0
        while lo + k < hi && isClosing(s[lo + k]) {
            k += 1
            let q = lo + k
            if q < hi && PythonText.isModuleSpace(s[q]) {
                var r = q
                while r < hi && PythonText.isModuleSpace(s[r]) { r += 1 }
                return (k, r - lo)
            }
            if q + 1 < hi && s[q] == "-" && s[q + 1] == "-" { return (k, k) }
            if q == hi || s[q] == "\n" { return (k, k) }
        }
        return nil
    }
}

extension PythonText {
    /// Python's `s.rstrip()`.
    static func rstrip(_ s: PunktSentenceTokenizer.Text) -> PunktSentenceTokenizer.Text {
        var hi = s.endIndex
        while hi > s.startIndex && isSpace(s[hi - 1]) { hi -= 1 }
        return s[s.startIndex..<hi]
    }
}
