/// The fixed patterns IFEval's layout instructions match (lm-evaluation-harness `instructions.py`),
/// compiled once, and the helpers those instructions share: quoting an answer, splitting it.
enum IFEvalPatterns {
    static let placeholder = FixedPattern(#"\[.*?\]"#)
    static let paragraphSeparator = FixedPattern(#"\s?\*\*\*\s?"#)
    static let title = FixedPattern(#"<<[^\n]+>>"#)
    static let postscriptPPS = FixedPattern(#"\s*p\.\s?p\.\s?s.*$"#, .multiline)
    static let postscriptPS = FixedPattern(#"\s*p\.\s?s\..*$"#, .multiline)

    static var all: [FixedPattern] {
        [placeholder, paragraphSeparator, title, postscriptPPS, postscriptPS]
    }

    /// An answer (or part of one) as messages quote it: its head, clipped.
    static func quote(_ s: Scalars) -> String { Excerpt.head(String(scalars: s)) }

    static func quote(_ s: ArraySlice<Unicode.Scalar>) -> String { Excerpt.head(String(scalars: s)) }

    /// Python's `re.split(pattern, value)` for a pattern that never matches empty: the pieces.
    static func split(_ value: Scalars, _ pattern: FixedPattern) throws(IFEvalEvaluationError) -> [ArraySlice<Unicode.Scalar>] {
        var pieces: [ArraySlice<Unicode.Scalar>] = []
        var last = 0
        for m in try pattern.matches(value) {
            pieces.append(value[last..<m.range.lowerBound])
            last = m.range.upperBound
        }
        pieces.append(value[last...])
        return pieces
    }
}
