/// Python `str` semantics over Unicode scalars (Python strings are sequences of code points).
///
/// IFEval's reference is Python: to agree with it on any answer, lengths, indices, comparisons,
/// `strip`, `split`, `lower`, `isupper`… are computed on code points with Python's character
/// predicates, never on Swift `Character`s (grapheme clusters, canonical equivalence).
typealias Scalars = [Unicode.Scalar]

enum PythonText {
    /// `str.isspace()` for one character, which is also what `re`'s `\s` matches in a `str`
    /// pattern: ASCII 9–13 and 28–31, space, U+0085, U+00A0, U+1680, U+2000–U+200A,
    /// U+2028, U+2029, U+202F, U+205F, U+3000.
    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return (v >= 9 && v <= 13) || (v >= 0x1C && v <= 0x20) }
        switch v {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// Python's `string.whitespace` (ASCII only): space, tab, LF, CR, VT, FF.
    static func isASCIIWhitespace(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        return v == 0x20 || (v >= 9 && v <= 13)
    }

    /// ASCII letters, digits and `_`.
    @inline(__always) static func isASCIIWord(_ v: UInt32) -> Bool {
        (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || (v >= 0x30 && v <= 0x39) || v == 0x5F
    }

    /// CJK ideographs, Hangul syllables, hiragana and katakana letters: letters (Lo) in every
    /// definition used here, answered without the property tables.
    @inline(__always) static func isIdeographOrSyllable(_ v: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0x3041...0x3096).contains(v) || (0x30A1...0x30FA).contains(v)
    }

    /// `\w` of the third-party `regex` module (which nltk ≥ 3.10 compiles its patterns with):
    /// Alphabetic, marks, decimal digits, connector punctuation and joiners (Unicode TR #18).
    static func isModuleWord(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return isASCIIWord(v) }
        if isIdeographOrSyllable(v) { return true }
        if (0x1F300..<0x1FB00).contains(v) { return false }
        if v == 0x200C || v == 0x200D { return true }
        let p = c.properties
        if p.isAlphabetic { return true }
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
    }

    /// `\s` of the `regex` module: the White_Space property (unlike `str.isspace`, not U+001C–U+001F).
    static func isModuleSpace(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v == 0x20 || (v >= 9 && v <= 13) }
        switch v {  // the White_Space property, spelled out
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// `str.isalpha()` for one character: general category Lu, Ll, Lt, Lm or Lo.
    static func isAlpha(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) }
        if isIdeographOrSyllable(v) { return true }
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    /// `re`'s `\d` for `str` patterns: decimal digits (general category Nd).
    static func isDecimalDigit(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v >= 0x30 && v <= 0x39 }
        return c.properties.generalCategory == .decimalNumber
    }

    /// True for blocks known to have no case at all (CJK, kana, Hangul, Yi, emoji...), so the
    /// property tables need not be consulted for the most common non-Latin text.
    @inline(__always) static func isCaselessBlock(_ v: UInt32) -> Bool {
        (0x2E80..<0xA640).contains(v) || (0xAC00..<0xD800).contains(v) || (0x1F300..<0x1FB00).contains(v)
    }

    static func isUpperChar(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v >= 0x41 && v <= 0x5A }
        if isCaselessBlock(v) { return false }
        return c.properties.isUppercase
    }

    static func isLowerChar(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v >= 0x61 && v <= 0x7A }
        if isCaselessBlock(v) { return false }
        return c.properties.isLowercase
    }

    static func isTitleChar(_ c: Unicode.Scalar) -> Bool {
        c.value >= 0x80 && !isCaselessBlock(c.value) && c.properties.generalCategory == .titlecaseLetter
    }

    /// `str.isupper()`: at least one cased character and no lowercase or titlecase one.
    static func isUpper<C: Collection>(_ s: C) -> Bool where C.Element == Unicode.Scalar {
        var cased = false
        for c in s {
            if isLowerChar(c) || isTitleChar(c) { return false }
            if !cased && isUpperChar(c) { cased = true }
        }
        return cased
    }

    /// `str.islower()`: at least one cased character and no uppercase or titlecase one.
    static func isLower<C: Collection>(_ s: C) -> Bool where C.Element == Unicode.Scalar {
        var cased = false
        for c in s {
            if isUpperChar(c) || isTitleChar(c) { return false }
            if !cased && isLowerChar(c) { cased = true }
        }
        return cased
    }

    /// `str.lower()`: full lowercase mapping (U+0130 becomes two characters) with the
    /// final-sigma rule, as CPython applies it.
    static func lower(_ s: Scalars) -> Scalars {
        var out = Scalars()
        out.reserveCapacity(s.count)
        for (i, c) in s.enumerated() {
            let v = c.value
            if v < 0x80 {
                out.append(v >= 0x41 && v <= 0x5A ? Unicode.Scalar(UInt8(truncatingIfNeeded: v + 32)) : c)
            } else if isCaselessBlock(v) || !c.properties.changesWhenLowercased {
                out.append(c)
            } else if v == 0x3A3 {
                out.append(isFinalSigma(s, at: i) ? "\u{3C2}" : "\u{3C3}")
            } else {
                out.append(contentsOf: c.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return out
    }

    private static func isFinalSigma(_ s: Scalars, at i: Int) -> Bool {
        var j = i - 1
        while j >= 0 && s[j].properties.isCaseIgnorable { j -= 1 }
        guard j >= 0 && s[j].properties.isCased else { return false }
        j = i + 1
        while j < s.count && s[j].properties.isCaseIgnorable { j += 1 }
        return j == s.count || !s[j].properties.isCased
    }

    /// `str.lower()` of a slice, as a `String` (ASCII fast path, no intermediate buffer).
    static func lowerString<C: Collection>(_ s: C) -> String where C.Element == Unicode.Scalar {
        var ascii = true
        for c in s where c.value >= 0x80 {
            ascii = false
            break
        }
        guard ascii else { return String(scalars: lower(Array(s))) }
        return String(unsafeUninitializedCapacity: s.count) { buffer in
            var k = 0
            for c in s {
                let v = UInt8(truncatingIfNeeded: c.value)
                buffer[k] = v >= 0x41 && v <= 0x5A ? v + 32 : v
                k += 1
            }
            return k
        }
    }

    /// Simple (one-to-one) lowercase of one character, as `re.IGNORECASE` compares characters.
    static func simpleLower(_ c: Unicode.Scalar) -> Unicode.Scalar {
        let v = c.value
        if v < 0x80 { return v >= 0x41 && v <= 0x5A ? Unicode.Scalar(UInt8(truncatingIfNeeded: v + 32)) : c }
        guard !isCaselessBlock(v), c.properties.changesWhenLowercased else { return c }
        if v == 0x130 { return "i" }
        let mapped = c.properties.lowercaseMapping.unicodeScalars
        if mapped.count == 1, let only = mapped.first { return only }
        return c
    }

    /// Simple (one-to-one) uppercase of one character.
    static func simpleUpper(_ c: Unicode.Scalar) -> Unicode.Scalar {
        let v = c.value
        if v < 0x80 { return v >= 0x61 && v <= 0x7A ? Unicode.Scalar(UInt8(truncatingIfNeeded: v - 32)) : c }
        guard !isCaselessBlock(v), c.properties.changesWhenUppercased else { return c }
        let mapped = c.properties.uppercaseMapping.unicodeScalars
        if mapped.count == 1, let only = mapped.first { return only }
        return c
    }

    /// `s.strip()` (no argument): removes Python whitespace at both ends.
    static func strip(_ s: Scalars) -> ArraySlice<Unicode.Scalar> {
        strip(s[...], where: isSpace)
    }

    static func strip(_ s: ArraySlice<Unicode.Scalar>, where drop: (Unicode.Scalar) -> Bool) -> ArraySlice<Unicode.Scalar> {
        var lo = s.startIndex, hi = s.endIndex
        while lo < hi && drop(s[lo]) { lo += 1 }
        while hi > lo && drop(s[hi - 1]) { hi -= 1 }
        return s[lo..<hi]
    }

    static func isBlank<C: Collection>(_ s: C) -> Bool where C.Element == Unicode.Scalar {
        s.allSatisfy(isSpace)
    }

    /// `s.split(sep)` with a non-empty literal separator.
    static func split(_ s: ArraySlice<Unicode.Scalar>, separator: Scalars) -> [ArraySlice<Unicode.Scalar>] {
        precondition(!separator.isEmpty, "empty separator")
        let search = ScalarSearch(separator)
        var parts: [ArraySlice<Unicode.Scalar>] = []
        var start = s.startIndex
        while let found = search.firstIndex(in: s, from: start) {
            parts.append(s[start..<found])
            start = found + separator.count
        }
        parts.append(s[start..<s.endIndex])
        return parts
    }

    /// `s.split()` (no argument): runs of Python whitespace separate fields; no empty fields.
    static func splitWhitespace(_ s: ArraySlice<Unicode.Scalar>) -> [ArraySlice<Unicode.Scalar>] {
        var parts: [ArraySlice<Unicode.Scalar>] = []
        var i = s.startIndex
        while i < s.endIndex {
            while i < s.endIndex && isSpace(s[i]) { i += 1 }
            guard i < s.endIndex else { break }
            let start = i
            while i < s.endIndex && !isSpace(s[i]) { i += 1 }
            parts.append(s[start..<i])
        }
        return parts
    }

    static func hasPrefix<C: Collection>(_ s: C, _ prefix: Scalars) -> Bool where C.Element == Unicode.Scalar {
        s.count >= prefix.count && s.prefix(prefix.count).elementsEqual(prefix)
    }

    static func hasSuffix<C: BidirectionalCollection>(_ s: C, _ suffix: Scalars) -> Bool where C.Element == Unicode.Scalar {
        s.count >= suffix.count && s.suffix(suffix.count).elementsEqual(suffix)
    }

    /// `needle in haystack` for code-point sequences.
    static func contains<C: RandomAccessCollection>(_ haystack: C, _ needle: Scalars) -> Bool
    where C.Element == Unicode.Scalar, C.Index == Int {
        ScalarSearch(needle).firstIndex(in: haystack) != nil
    }
}

extension String {
    /// The string's code points, as Python indexes them. Decoded from the UTF-8 in place, which
    /// a String always holds valid: `Array(unicodeScalars)` walks the scalar view index by index,
    /// at several times the cost, and every graded answer is decoded once.
    var scalars: Scalars {
        var text = self
        return text.withUTF8 { bytes in
            Scalars(unsafeUninitializedCapacity: bytes.count) { buffer, count in
                var i = 0, k = 0
                let n = bytes.count
                while i < n {
                    let lead = UInt32(bytes[i])
                    var value: UInt32
                    if lead < 0x80 {
                        value = lead
                        i += 1
                    } else if lead < 0xE0 {
                        value = (lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                        i += 2
                    } else if lead < 0xF0 {
                        value = (lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                        i += 3
                    } else {
                        value =
                            (lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                            | UInt32(bytes[i + 3] & 0x3F)
                        i += 4
                    }
                    buffer[k] = unsafeBitCast(value, to: Unicode.Scalar.self)  // valid UTF-8 decodes to valid scalars
                    k += 1
                }
                count = k
            }
        }
    }

    init<C: Collection>(scalars: C) where C.Element == Unicode.Scalar {
        var length = 0
        for scalar in scalars { length += UTF8.width(scalar) }
        self.init(unsafeUninitializedCapacity: length) { buffer in
            var k = 0
            for scalar in scalars {
                if scalar.value < 0x80 {
                    buffer[k] = UInt8(truncatingIfNeeded: scalar.value)
                    k += 1
                } else {
                    UTF8.encode(scalar) { byte in
                        buffer[k] = byte
                        k += 1
                    }
                }
            }
            return k
        }
    }
}
