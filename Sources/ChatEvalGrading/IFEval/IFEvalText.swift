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

/// IFEval's comparison relations.
enum IFEvalRelation: String, CaseIterable, Sendable {
    case lessThan = "less than"
    case atLeast = "at least"

    func holds(_ actual: Int, _ threshold: Int) -> Bool {
        switch self {
        case .lessThan: actual < threshold
        case .atLeast: actual >= threshold
        }
    }

    func describe(_ threshold: Int, _ unit: String) -> String { "\(rawValue) \(threshold) \(unit)" }
}

/// A regex fixed by IFEval or NLTK, compiled once. Tests check that each compiles; should one
/// not, checks using it report an evaluation error instead of trapping.
struct FixedPattern: Sendable {
    let pattern: String
    let regex: PythonRegex?

    init(_ pattern: String, _ flags: RegexFlags = []) {
        self.pattern = pattern
        regex = try? PythonRegex(pattern, flags: flags)
    }
}

/// Why an IFEval instruction could not be evaluated.
struct IFEvalEvaluationError: Error, Sendable {
    var message: String

    static func regex(_ error: PCRE2Error) -> IFEvalEvaluationError {
        IFEvalEvaluationError(message: error.verdictError + " (\(error))")
    }

    static func pattern(_ p: FixedPattern) -> IFEvalEvaluationError {
        IFEvalEvaluationError(message: "internal pattern \(p.pattern) did not compile")
    }
}

extension FixedPattern {
    func count(_ s: Scalars) throws(IFEvalEvaluationError) -> Int {
        try matches(s).count
    }

    func firstMatch(_ s: Scalars) throws(IFEvalEvaluationError) -> RegexMatch? {
        guard let regex else { throw .pattern(self) }
        do { return try regex.search(s) } catch { throw .regex(error) }
    }

    func matches(_ s: Scalars) throws(IFEvalEvaluationError) -> [RegexMatch] {
        guard let regex else { throw .pattern(self) }
        do { return try regex.matches(s) } catch { throw .regex(error) }
    }
}

extension PythonRegex {
    /// `re.search` for IFEval: a limit reached becomes an evaluation error.
    func ifevalSearch(_ s: Scalars) throws(IFEvalEvaluationError) -> RegexMatch? {
        do { return try search(s) } catch { throw .regex(error) }
    }

    func ifevalMatches(_ s: Scalars) throws(IFEvalEvaluationError) -> [RegexMatch] {
        do { return try matches(s) } catch { throw .regex(error) }
    }
}
