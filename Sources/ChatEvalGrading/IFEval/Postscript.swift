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
