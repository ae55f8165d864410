/// `detectable_format:number_highlighted_sections`: `*…*` and `**…**` spans (no newline inside)
/// with non-blank text, at least `num_highlights` — `re.findall` of `\*[^\n\*]*\*` and
/// `\*\*[^\n\*]*\*\*`, counted by equivalent scanners.
struct NumberOfHighlights: IFEvalInstruction {
    let minimum: Int

    /// Non-overlapping spans opened by `open` stars, then no star or newline, then `open` stars;
    /// counts those whose inside is not blank (`open` ≥ 1). Reads the code points in place and
    /// skips straight to the next star: this runs twice on every answer a suite checks for highlights.
    static func count(_ t: Scalars, stars open: Int) -> Int {
        t.withUnsafeBufferPointer { t in
            let n = t.count
            func starsRun(at i: Int) -> Bool {
                for k in 0..<open where t[i + k] != "*" { return false }
                return true
            }
            var total = 0
            var a = 0
            while a + 2 * open <= n {
                guard t[a] == "*" else {
                    a += 1
                    while a < n && t[a] != "*" { a += 1 }
                    continue
                }
                guard starsRun(at: a) else {
                    a += 1
                    continue
                }
                var b = a + open
                while b < n && t[b] != "*" && t[b] != "\n" { b += 1 }
                if b + open <= n && starsRun(at: b) {
                    if !PythonText.isBlank(t[(a + open)..<b]) { total += 1 }
                    a = b + open
                } else {
                    a += 1
                }
            }
            return total
        }
    }

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let count = Self.count(value, stars: 1) + Self.count(value, stars: 2)
        return IFEvalResult(followed: count >= minimum, detail: "expected at least \(minimum) *highlighted* sections, found \(count)")
    }
}
