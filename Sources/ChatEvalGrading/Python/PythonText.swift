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

    /// `re`'s `\w` for `str` patterns: `str.isalnum()` or `_` (letters L*, and characters with a
    /// numeric value). Combining marks are not word characters in Python.
    static func isWord(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return asciiWord[Int(v)] }
        return isAlpha(c) || c.properties.numericType != nil
    }

    /// `str.isalpha()` for one character: general category Lu, Ll, Lt, Lm or Lo.
    static func isAlpha(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) }
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

    private static let asciiWord: [Bool] = (0..<128).map { v in
        (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
    }

    static func isUpperChar(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v >= 0x41 && v <= 0x5A }
        return c.properties.isUppercase
    }

    static func isLowerChar(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v >= 0x61 && v <= 0x7A }
        return c.properties.isLowercase
    }

    static func isTitleChar(_ c: Unicode.Scalar) -> Bool {
        c.value >= 0x80 && c.properties.generalCategory == .titlecaseLetter
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
            } else if !c.properties.changesWhenLowercased {
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

    /// `str.lower()` of a slice, as a `String` (ASCII fast path).
    static func lowerString(_ s: ArraySlice<Unicode.Scalar>) -> String {
        if s.allSatisfy({ $0.value < 0x80 }) {
            var bytes = [UInt8](repeating: 0, count: s.count)
            var k = 0
            for c in s {
                let v = UInt8(truncatingIfNeeded: c.value)
                bytes[k] = v >= 0x41 && v <= 0x5A ? v + 32 : v
                k += 1
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(scalars: lower(Array(s)))
    }

    /// Simple (one-to-one) lowercase of one character, as `re.IGNORECASE` compares characters.
    static func simpleLower(_ c: Unicode.Scalar) -> Unicode.Scalar {
        let v = c.value
        if v < 0x80 { return v >= 0x41 && v <= 0x5A ? Unicode.Scalar(UInt8(truncatingIfNeeded: v + 32)) : c }
        guard c.properties.changesWhenLowercased else { return c }
        if v == 0x130 { return "i" }
        let mapped = c.properties.lowercaseMapping.unicodeScalars
        if mapped.count == 1, let only = mapped.first { return only }
        return c
    }

    /// Simple (one-to-one) uppercase of one character.
    static func simpleUpper(_ c: Unicode.Scalar) -> Unicode.Scalar {
        let v = c.value
        if v < 0x80 { return v >= 0x61 && v <= 0x7A ? Unicode.Scalar(UInt8(truncatingIfNeeded: v - 32)) : c }
        guard c.properties.changesWhenUppercased else { return c }
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
        var parts: [ArraySlice<Unicode.Scalar>] = []
        var start = s.startIndex
        var i = s.startIndex
        while i + separator.count <= s.endIndex {
            if s[i] == separator[0] && s[i..<(i + separator.count)].elementsEqual(separator) {
                parts.append(s[start..<i])
                i += separator.count
                start = i
            } else {
                i += 1
            }
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

    /// `s in t` for code-point sequences (naive search; patterns are short).
    static func contains<C: Collection>(_ haystack: C, _ needle: Scalars) -> Bool where C.Element == Unicode.Scalar, C.Index == Int {
        firstIndex(of: needle, in: haystack) != nil
    }

    static func firstIndex<C: Collection>(of needle: Scalars, in haystack: C) -> Int? where C.Element == Unicode.Scalar, C.Index == Int {
        guard let first = needle.first else { return haystack.startIndex }
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while i <= last {
            if haystack[i] == first {
                var k = 1
                while k < needle.count && haystack[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}

extension String {
    /// The string's code points, as Python indexes them.
    var scalars: Scalars { Array(unicodeScalars) }

    init<C: Sequence>(scalars: C) where C.Element == Unicode.Scalar {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.underestimatedCount)
        for scalar in scalars {
            if scalar.value < 0x80 { bytes.append(UInt8(truncatingIfNeeded: scalar.value)) }
            else { UTF8.encode(scalar) { bytes.append($0) } }
        }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
