/// `detectable_format:number_bullet_lists`: `re.findall` counts of `^\s*\*[^\*].*$` plus
/// `^\s*-.*$` (multiline), exactly `num_bullets`.
///
/// Counted by a scanner equivalent to those two searches (checked against Python on random
/// texts): a match starts at a line start whose first non-`\s` character (possibly on a later
/// line) is `*` followed by a character other than `*` — which may be a newline, so the match
/// then runs to the end of the next line — or `-`; searching resumes where a match ends.
struct NumberOfBullets: IFEvalInstruction {
    let expected: Int

    /// Matches of `^\s*<marker>…$`; with `needsNonStar` (the `*` bullet's `[^\*]`) the character
    /// after the marker must not be `*`, and it is consumed (so `.*` starts after it).
    static func count(_ t: Scalars, marker: Unicode.Scalar, needsNonStar: Bool) -> Int {
        t.withUnsafeBufferPointer { t in
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
                    pos = endOfLine(from: pos) + 1  // a match starts only at a line start
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
    }

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let stars = Self.count(value, marker: "*", needsNonStar: true)
        let dashes = Self.count(value, marker: "-", needsNonStar: false)
        return IFEvalResult(
            followed: stars + dashes == expected,
            detail: "expected exactly \(expected) bullet points, found \(stars + dashes) (\(stars) with *, \(dashes) with -)")
    }
}
