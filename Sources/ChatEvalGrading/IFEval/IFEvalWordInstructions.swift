private func quote(_ s: Scalars) -> String { Excerpt.head(String(scalars: s)) }

/// `keywords:existence`: every keyword found by `re.search(keyword, value, re.IGNORECASE)`
/// (keywords are regexes in the reference too).
struct KeywordsExistence: IFEvalInstruction {
    let keywords: [(String, PythonRegex)]

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        for (keyword, regex) in keywords.sorted(by: { $0.0 < $1.0 }) where try regex.ifevalSearch(value) == nil {
            return IFEvalResult(followed: false, detail: "keyword \"\(keyword)\" not found (ignoring case) in \(quote(value))")
        }
        return IFEvalResult(followed: true, detail: "all \(keywords.count) keywords found")
    }
}

/// `keywords:frequency`: `len(re.findall(keyword, value, re.IGNORECASE))` against the relation.
struct KeywordFrequency: IFEvalInstruction {
    let keyword: String
    let regex: PythonRegex
    let frequency: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let found = try regex.ifevalMatches(value)
        let ok = relation.holds(found.count, frequency)
        var detail = "expected \"\(keyword)\" \(relation.describe(frequency, "times")), found \(found.count)"
        if let first = found.first { detail += "; first: \(Excerpt.around(value, first.range))" }
        return IFEvalResult(followed: ok, detail: detail)
    }
}

/// `keywords:forbidden_words`: none of `\bword\b` (ignoring case) found.
struct ForbiddenWords: IFEvalInstruction {
    let words: [(String, PythonRegex)]

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        for (word, regex) in words {
            if let hit = try regex.ifevalSearch(value) {
                return IFEvalResult(followed: false, detail: "forbidden word \"\(word)\" found: \(Excerpt.around(value, hit.range))")
            }
        }
        return IFEvalResult(followed: true, detail: "none of the \(words.count) forbidden words found")
    }
}

/// `keywords:letter_frequency`: occurrences of the letter in `value.lower()`.
struct LetterFrequency: IFEvalInstruction {
    let letter: Unicode.Scalar
    let frequency: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let count = PythonText.lower(value).reduce(0) { $0 + ($1 == letter ? 1 : 0) }
        return IFEvalResult(
            followed: relation.holds(count, frequency),
            detail: "expected letter \"\(letter)\" \(relation.describe(frequency, "times")) (ignoring case), found \(count)")
    }
}

/// `language:response_language`: the detected language is the expected one; IFEval counts a
/// text without letters (langdetect raises) as followed.
struct ResponseLanguage: IFEvalInstruction {
    let language: String

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        guard let identifier = LanguageIdentifier.shared else {
            throw IFEvalEvaluationError(message: "language identification unavailable (install libexttextcat-data)")
        }
        guard let detected = identifier.detect(value) else {
            return IFEvalResult(followed: true, detail: "no letters to identify a language (IFEval counts this as followed)")
        }
        return IFEvalResult(followed: detected == language, detail: "expected language \(language), detected \(detected): \(quote(value))")
    }
}

/// `change_case:english_capital` / `english_lowercase`: `value.isupper()` (or `islower()`) and
/// English detected; when the case test passes but no language can be detected, followed (as IFEval).
struct EnglishCase: IFEvalInstruction {
    let upper: Bool

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        let caseOK = upper ? PythonText.isUpper(value) : PythonText.isLower(value)
        let what = upper ? "all capital letters" : "all lowercase letters"
        guard caseOK else {
            let offender = value.firstIndex {
                upper
                    ? (PythonText.isLowerChar($0) || PythonText.isTitleChar($0))
                    : (PythonText.isUpperChar($0) || PythonText.isTitleChar($0))
            }
            let at = offender.map { Excerpt.around(value, $0..<($0 + 1)) } ?? quote(value)
            return IFEvalResult(followed: false, detail: "expected \(what); \(offender == nil ? "no cased letter in" : "found") \(at)")
        }
        guard let identifier = LanguageIdentifier.shared else {
            throw IFEvalEvaluationError(message: "language identification unavailable (install libexttextcat-data)")
        }
        guard let detected = identifier.detect(value) else {
            return IFEvalResult(followed: true, detail: "\(what); no language detectable (IFEval counts this as followed)")
        }
        return IFEvalResult(followed: detected == "en", detail: "\(what); expected English, detected \(detected)")
    }
}

/// `change_case:capital_word_frequency`: tokens of `nltk.word_tokenize` that are `isupper()`.
struct CapitalWordFrequency: IFEvalInstruction {
    let frequency: Int
    let relation: IFEvalRelation

    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        var count = 0
        var shown: [String] = []
        do {
            try NLTKWordTokenizer.forEachToken(in: value) { token in
                guard PythonText.isUpper(token) else { return }
                count += 1
                if shown.count < 5 { shown.append(String(scalars: token)) }
            }
        } catch {
            throw .regex(error)
        }
        var detail = "expected all-capital words \(relation.describe(frequency, "times")), found \(count)"
        if !shown.isEmpty { detail += ": " + shown.joined(separator: ", ") + (count > 5 ? ", …" : "") }
        return IFEvalResult(followed: relation.holds(count, frequency), detail: detail)
    }
}

/// `punctuation:no_comma`: no `,` (U+002C) anywhere.
struct NoComma: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        if let at = value.firstIndex(of: ",") {
            return IFEvalResult(followed: false, detail: "expected no comma; found one: \(Excerpt.around(value, at..<(at + 1)))")
        }
        return IFEvalResult(followed: true, detail: "no comma")
    }
}
