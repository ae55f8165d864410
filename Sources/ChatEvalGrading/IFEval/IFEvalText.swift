/// Text measures shared with IFEval's `instructions_util`.
enum IFEvalText {
    /// `count_words`: `nltk.tokenize.RegexpTokenizer(r"\w+")`. nltk ≥ 3.10 compiles it with the
    /// `regex` module, whose `\w` includes combining marks (so "हिन्दी" is one word, as is
    /// "e\u{301}t\u{e9}"); nltk 3.9 used `re`, which splits words at marks.
    static func countWords(_ s: Scalars) -> Int {
        var count = 0, inWord = false
        for c in s {
            let w = PythonText.isModuleWord(c)
            if w && !inWord { count += 1 }
            inWord = w
        }
        return count
    }
}

extension PythonRegex {
    /// `re.search` for IFEval: a limit reached becomes an evaluation error.
    func ifevalSearch(_ s: Scalars) throws(IFEvalEvaluationError) -> RegexMatch? {
        do { return try search(s) } catch { throw .regex(error) }
    }

    /// `len(re.findall(…))` and the first match's range, without keeping the matches.
    func ifevalCount(_ s: Scalars) throws(IFEvalEvaluationError) -> (count: Int, first: Range<Int>?) {
        var count = 0
        var first: Range<Int>?
        do {
            try forEachMatch(in: s, with: try RegexMatcher()) { matcher in
                if count == 0 { first = matcher.group(0) }
                count += 1
                return true
            }
        } catch { throw .regex(error) }
        return (count, first)
    }
}
