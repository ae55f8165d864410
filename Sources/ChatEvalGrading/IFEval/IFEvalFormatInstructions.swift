/// IFEval instructions about length, layout and structure (lm-evaluation-harness `instructions.py`).
enum IFEvalPatterns {
    static let placeholder = FixedPattern(#"\[.*?\]"#)
    static let paragraphSeparator = FixedPattern(#"\s?\*\*\*\s?"#)
    static let title = FixedPattern(#"<<[^\n]+>>"#)
    static let postscriptPPS = FixedPattern(#"\s*p\.\s?p\.\s?s.*$"#, .multiline)
    static let postscriptPS = FixedPattern(#"\s*p\.\s?s\..*$"#, .multiline)

    static var all: [FixedPattern] {
        [placeholder, paragraphSeparator, title, postscriptPPS, postscriptPS]
    }
}

private func quote(_ s: Scalars) -> String { Excerpt.head(String(scalars: s)) }
private func quote(_ s: ArraySlice<Unicode.Scalar>) -> String { Excerpt.head(String(scalars: s)) }

/// `length_constraints:number_sentences`: Punkt sentence count against the relation.
struct NumberOfSentences: IFEvalInstruction {
    let threshold: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let n = PunktSentenceTokenizer.english.countSentences(value)
        return IFEvalResult(
            followed: relation.holds(n, threshold), detail: "expected \(relation.describe(threshold, "sentences")), found \(n)")
    }
}

/// `length_constraints:number_words`: `\w+` runs against the relation.
struct NumberOfWords: IFEvalInstruction {
    let threshold: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let n = IFEvalText.countWords(value)
        return IFEvalResult(followed: relation.holds(n, threshold), detail: "expected \(relation.describe(threshold, "words")), found \(n)")
    }
}

/// Python's `re.split(pattern, value)` for a pattern that never matches empty: the pieces.
private func split(_ value: Scalars, _ pattern: FixedPattern) throws(IFEvalEvaluationError) -> [ArraySlice<Unicode.Scalar>] {
    var pieces: [ArraySlice<Unicode.Scalar>] = []
    var last = 0
    for m in try pattern.matches(value) {
        pieces.append(value[last..<m.range.lowerBound])
        last = m.range.upperBound
    }
    pieces.append(value[last...])
    return pieces
}

/// `length_constraints:number_paragraphs`: pieces split by `\s?\*\*\*\s?`; empty pieces are
/// allowed only first or last (not counted); an empty piece in between fails.
struct NumberOfParagraphs: IFEvalInstruction {
    let expected: Int

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let pieces = try split(value, IFEvalPatterns.paragraphSeparator)
        var count = pieces.count
        for (index, piece) in pieces.enumerated() where PythonText.isBlank(piece) {
            if index == 0 || index == pieces.count - 1 {
                count -= 1
            } else {
                return IFEvalResult(followed: false, detail: "paragraph \(index + 1) (between *** separators) is empty")
            }
        }
        return IFEvalResult(followed: count == expected, detail: "expected \(expected) paragraphs separated by ***, found \(count)")
    }
}

/// `length_constraints:nth_paragraph_first_word`: paragraphs split by `\n\n`; the count of
/// non-blank ones must equal `num_paragraphs` and the nth piece's first word (leading ' and "
/// removed, cut at the first of . , ? ! ' ", lowercased) must be `first_word`.
struct NthParagraphFirstWord: IFEvalInstruction {
    let numParagraphs: Int
    let nth: Int
    let firstWord: Scalars

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let paragraphs = PythonText.split(value[...], separator: ["\n", "\n"])
        let count = paragraphs.filter { !PythonText.isBlank($0) }.count
        guard nth <= count else {
            return IFEvalResult(
                followed: false, detail: "expected paragraph \(nth) to exist; found \(count) non-empty paragraphs separated by blank lines")
        }
        let paragraph = PythonText.strip(Array(paragraphs[nth - 1]))
        guard !paragraph.isEmpty else {
            return IFEvalResult(followed: false, detail: "paragraph \(nth) is empty")
        }
        var word = PythonText.strip(PythonText.splitWhitespace(paragraph)[0], where: PythonText.isSpace)
        while word.first == "'" { word = word.dropFirst() }
        while word.first == "\"" { word = word.dropFirst() }
        var first = Scalars()
        for c in word {
            if [".", ",", "?", "!", "'", "\""].contains(c) { break }
            first.append(contentsOf: PythonText.lower([c]))
        }
        let ok = count == numParagraphs && first == firstWord
        return IFEvalResult(
            followed: ok,
            detail:
                "expected \(numParagraphs) paragraphs with paragraph \(nth) starting with \"\(String(scalars: firstWord))\"; "
                + "found \(count) paragraphs, paragraph \(nth) starts with \"\(String(scalars: first))\""
        )
    }
}

/// `detectable_content:number_placeholders`: `\[.*?\]` matches, at least `num_placeholders`.
struct NumberOfPlaceholders: IFEvalInstruction {
    let minimum: Int

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let n = try IFEvalPatterns.placeholder.count(value)
        return IFEvalResult(followed: n >= minimum, detail: "expected at least \(minimum) [placeholders], found \(n)")
    }
}

/// `detectable_content:postscript`: in `value.lower()`, a line part matching the marker's pattern.
struct Postscript: IFEvalInstruction {
    let marker: String
    let pattern: FixedPattern

    /// The reference's pattern for a marker: fixed ones for "P.P.S" and "P.S.", else `\s*` +
    /// the lowercased marker (as a regex) + `.*$`.
    static func pattern(for marker: String) -> FixedPattern {
        switch marker {
        case "P.P.S": return IFEvalPatterns.postscriptPPS
        case "P.S.": return IFEvalPatterns.postscriptPS
        default: return FixedPattern(#"\s*"# + String(scalars: PythonText.lower(marker.scalars)) + #".*$"#, .multiline)
        }
    }

    /// One element of a fixed postscript pattern.
    enum MarkerUnit {
        case letter(Unicode.Scalar)
        case period, optionalSpace
    }

    /// `p\.\s?s\.` for "P.S." and `p\.\s?p\.\s?s` for "P.P.S" (letters in either case).
    static func units(for marker: String) -> [MarkerUnit] {
        marker == "P.S."
            ? [.letter("p"), .period, .optionalSpace, .letter("s"), .period]
            : [.letter("p"), .period, .optionalSpace, .letter("p"), .period, .optionalSpace, .letter("s")]
    }

    /// Offset of the first occurrence of the units in `t`, or nil.
    static func findMarker(_ t: Scalars, _ units: [MarkerUnit]) -> Int? {
        func matches(_ i: Int, _ k: Int) -> Bool {
            guard k < units.count else { return true }
            switch units[k] {
            case .letter(let l):
                guard i < t.count, t[i].isASCII, PythonText.simpleLower(t[i]) == l else { return false }
                return matches(i + 1, k + 1)
            case .period:
                guard i < t.count, t[i] == "." else { return false }
                return matches(i + 1, k + 1)
            case .optionalSpace:
                if i < t.count, PythonText.isSpace(t[i]), matches(i + 1, k + 1) { return true }
                return matches(i, k + 1)
            }
        }
        for i in t.indices where (t[i] == "p" || t[i] == "P") && matches(i, 0) { return i }
        return nil
    }

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        if marker == "P.S." || marker == "P.P.S" {
            // Same verdict as the reference's regex on value.lower(): `\s*` and `.*$` always
            // match, lowercasing only turns P/S into p/s, and creates no period or whitespace.
            if let at = Self.findMarker(value, Self.units(for: marker)) {
                return IFEvalResult(followed: true, detail: "postscript found: \(Excerpt.around(value, at..<(at + 4)))")
            }
            return IFEvalResult(
                followed: false, detail: "expected a postscript starting with \"\(marker)\"; none in \(Excerpt.tail(value[...]))")
        }
        let lowered = PythonText.lower(value)
        if let hit = try pattern.firstMatch(lowered) {
            return IFEvalResult(followed: true, detail: "postscript found: \(Excerpt.around(lowered, hit.range))")
        }
        return IFEvalResult(
            followed: false, detail: "expected a postscript starting with \"\(marker)\"; none in \(Excerpt.tail(String(scalars: value)))")
    }
}

/// `detectable_format:number_bullet_lists`: `re.findall` counts of `^\s*\*[^\*].*$` plus
/// `^\s*-.*$` (multiline), exactly `num_bullets`.
///
/// Counted by a scanner equivalent to those two searches (checked against Python on random
/// texts): a match starts at a line start whose first non-`\s` character (possibly on a later
/// line) is `*` followed by a character other than `*` — which may be a newline, so the match
/// then runs to the end of the next line — or `-`; searching resumes where a match ends.
struct NumberOfBullets: IFEvalInstruction {
    let expected: Int

    /// Matches of `^\s*<marker>…$` where `afterMarker` says whether the character after the
    /// marker allows a match, and whether that character is consumed (so `.*` starts after it).
    static func count(_ t: Scalars, marker: Unicode.Scalar, needsNonStar: Bool) -> Int {
        let n = t.count
        func endOfLine(from i: Int) -> Int {
            var e = i
            while e < n && t[e] != "\n" { e += 1 }
            return e
        }
        var total = 0
        var pos = 0
        while pos <= n {
            guard pos == 0 || t[pos - 1] == "\n" else {
                pos += 1
                continue
            }
            var q = pos
            while q < n && PythonText.isSpace(t[q]) { q += 1 }
            guard q < n, t[q] == marker else {
                pos += 1
                continue
            }
            if needsNonStar {
                guard q + 1 < n, t[q + 1] != "*" else {
                    pos += 1
                    continue
                }
                pos = t[q + 1] == "\n" ? endOfLine(from: q + 2) : endOfLine(from: q + 1)
            } else {
                pos = endOfLine(from: q + 1)
            }
            total += 1
        }
        return total
    }

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let stars = Self.count(value, marker: "*", needsNonStar: true)
        let dashes = Self.count(value, marker: "-", needsNonStar: false)
        return IFEvalResult(
            followed: stars + dashes == expected,
            detail: "expected exactly \(expected) bullet points, found \(stars + dashes) (\(stars) with *, \(dashes) with -)")
    }
}

/// `detectable_format:constrained_response`: the stripped answer contains "My answer is yes.",
/// "My answer is no." or "My answer is maybe.".
struct ConstrainedResponse: IFEvalInstruction {
    static let options = ["My answer is yes.", "My answer is no.", "My answer is maybe."]

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let stripped = PythonText.strip(value)
        for option in Self.options where PythonText.contains(stripped, option.scalars) {
            return IFEvalResult(followed: true, detail: "contains \"\(option)\"")
        }
        return IFEvalResult(
            followed: false,
            detail: "expected one of \"My answer is yes.\", \"My answer is no.\", \"My answer is maybe.\"; found \(quote(stripped))")
    }
}

/// `detectable_format:number_highlighted_sections`: `*…*` and `**…**` spans (no newline inside)
/// with non-blank text, at least `num_highlights` — `re.findall` of `\*[^\n\*]*\*` and
/// `\*\*[^\n\*]*\*\*`, counted by equivalent scanners.
struct NumberOfHighlights: IFEvalInstruction {
    let minimum: Int

    /// Non-overlapping spans opened by `open` stars, then no star or newline, then `open` stars;
    /// counts those whose inside is not blank.
    static func count(_ t: Scalars, stars open: Int) -> Int {
        let n = t.count
        var total = 0
        var a = 0
        while a + 2 * open <= n {
            guard (0..<open).allSatisfy({ t[a + $0] == "*" }) else {
                a += 1
                continue
            }
            var b = a + open
            while b < n && t[b] != "*" && t[b] != "\n" { b += 1 }
            if b + open <= n && (0..<open).allSatisfy({ t[b + $0] == "*" }) {
                if !PythonText.isBlank(t[(a + open)..<b]) { total += 1 }
                a = b + open
            } else {
                a += 1
            }
        }
        return total
    }

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let count = Self.count(value, stars: 1) + Self.count(value, stars: 2)
        return IFEvalResult(followed: count >= minimum, detail: "expected at least \(minimum) *highlighted* sections, found \(count)")
    }
}

/// `detectable_format:multiple_sections`: matches of `\s?` + splitter + `\s?\d+\s?` (the splitter
/// is a regex, case-sensitive), at least `num_sections`.
struct MultipleSections: IFEvalInstruction {
    let splitter: String
    let regex: PythonRegex
    let minimum: Int

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let n = try regex.ifevalMatches(value).count
        return IFEvalResult(followed: n >= minimum, detail: "expected at least \(minimum) sections marked \"\(splitter) N\", found \(n)")
    }
}

/// `detectable_format:json_format`: after IFEval's fence stripping, `json.loads` succeeds.
struct JSONFormat: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let text = JSONChecks.stripFences(value)
        switch PythonJSON.parse(text) {
        case .success(let v): return IFEvalResult(followed: true, detail: "valid JSON \(v.typeName)")
        case .failure(let p):
            let at = min(p.offset, text.count)
            return IFEvalResult(
                followed: false, detail: "expected JSON; \(p.message) at character \(at): \(Excerpt.around(Array(text), at..<at))")
        }
    }
}

/// `detectable_format:title`: some `<<…>>` (one line) with non-blank text inside.
struct Title: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        for m in try IFEvalPatterns.title.matches(value) {
            var t = value[m.range]
            while t.first == "<" { t = t.dropFirst() }
            while t.last == ">" { t = t.dropLast() }
            if !PythonText.isBlank(t) { return IFEvalResult(followed: true, detail: "title \(Excerpt.around(value, m.range))") }
        }
        return IFEvalResult(followed: false, detail: "expected a title in <<double angular brackets>>; none in \(quote(value))")
    }
}

/// `combination:two_responses`: split by `******`, exactly two non-blank parts (blank parts only
/// first or last) that differ once stripped.
struct TwoResponses: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let parts = PythonText.split(value[...], separator: Array("******".unicodeScalars))
        var valid: [ArraySlice<Unicode.Scalar>] = []
        for (index, part) in parts.enumerated() {
            if PythonText.isBlank(part) {
                if index != 0 && index != parts.count - 1 {
                    return IFEvalResult(followed: false, detail: "response \(index + 1) between ****** separators is empty")
                }
            } else {
                valid.append(part)
            }
        }
        guard valid.count == 2 else {
            return IFEvalResult(followed: false, detail: "expected two responses separated by ******, found \(valid.count)")
        }
        let same = PythonText.strip(Array(valid[0])).elementsEqual(PythonText.strip(Array(valid[1])))
        return IFEvalResult(followed: !same, detail: same ? "the two responses are identical" : "two different responses")
    }
}

/// `combination:repeat_prompt`: the stripped, lowercased answer starts with the stripped,
/// lowercased prompt.
struct RepeatPrompt: IFEvalInstruction {
    let prompt: String

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let answer = PythonText.lower(Array(PythonText.strip(value)))
        let wanted = PythonText.lower(Array(PythonText.strip(prompt.scalars)))
        let ok = PythonText.hasPrefix(answer, wanted)
        return IFEvalResult(
            followed: ok,
            detail: ok
                ? "answer starts with the prompt"
                : "expected the answer to start with the prompt \(Excerpt.head(prompt, width: 40)); it starts \(quote(value))")
    }
}

/// `startend:end_checker`: `value.strip().strip('"').lower()` ends with the lowercased phrase.
struct EndPhrase: IFEvalInstruction {
    let phrase: String

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let stripped = PythonText.strip(PythonText.strip(value), where: { $0 == "\"" })
        let answer = PythonText.lower(Array(stripped))
        let wanted = PythonText.lower(Array(PythonText.strip(phrase.scalars)))
        let ok = PythonText.hasSuffix(answer, wanted)
        return IFEvalResult(
            followed: ok,
            detail: ok
                ? "ends with \"\(phrase)\""
                : "expected the answer to end with \"\(phrase)\"; it ends \(Excerpt.tail(String(scalars: stripped)))")
    }
}

/// `startend:quotation`: the stripped answer is longer than one character and starts and ends with `"`.
struct Quotation: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let s = PythonText.strip(value)
        let ok = s.count > 1 && s.first == "\"" && s.last == "\""
        return IFEvalResult(
            followed: ok, detail: ok ? "wrapped in double quotes" : "expected the answer wrapped in double quotes; found \(quote(s))")
    }
}
