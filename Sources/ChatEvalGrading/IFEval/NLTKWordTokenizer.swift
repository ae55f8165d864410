/// A port of NLTK's `word_tokenize` (nltk 3.10: Punkt sentences, then `NLTKWordTokenizer`'s
/// ordered regex substitutions, then a whitespace split), which IFEval's
/// `change_case:capital_word_frequency` uses. The substitutions are NLTK's own patterns, run by
/// the Python-compatible engine (look-around allowed for these fixed patterns).
enum NLTKWordTokenizer {
    private struct Rule: Sendable {
        let regex: PythonRegex
        let template: ReplacementTemplate
    }

    /// nltk compiles these with `redos` (the `regex` module) except the contractions (`re`).
    private static func rules(_ pairs: [(String, String)], flags: RegexFlags = .regexModule) -> [Rule] {
        pairs.compactMap { pattern, template in
            // The patterns are fixed and known to compile; a failure would drop the rule rather than trap.
            (try? PythonRegex(pattern, flags: flags, allowLookaround: true)).map { Rule(regex: $0, template: ReplacementTemplate(template)) }
        }
    }

    private static let startingQuotes = rules([
        (#"([«“‘„]|[`]+)"#, #" \1 "#),
        (#"^\""#, "``"),
        (#"(``)"#, #" \1 "#),
        (#"([ \(\[{<])(\"|\'{2})"#, #"\1 `` "#),
        (#"(?i)(?<!\w)(\')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)"#, #"\1 "#),
    ])

    private static let punctuation = rules([
        (#"([^\.])(\.)([\]\)}>"\'»”’ ]*+)\s*$"#, #"\1 \2 \3 "#),
        (#"([:,])([^\d])"#, #" \1 \2"#),
        (#"([:,])$"#, #" \1 "#),
        (#"\.{2,}"#, #" \g<0> "#),
        (#"[;@#$%&]"#, #" \g<0> "#),
        (#"[\u2012-\u2015]"#, #" \g<0> "#),
        (#"([^\.])(\.)([\]\)}>"\']*)\s*$"#, #"\1 \2\3 "#),
        (#"[?!]"#, #" \g<0> "#),
        (#"([^'])' "#, #"\1 ' "#),
        (#"[*]"#, #" \g<0> "#),
    ])

    private static let brackets = rules([
        (#"[\]\[\(\)\{\}\<\>]"#, #" \g<0> "#),
        (#"--"#, #" -- "#),
    ])

    private static let endingQuotes = rules([
        (#"([»”’])"#, #" \1 "#),
        (#"''"#, #" '' "#),
        ("\"", #" '' "#),
        (#"\s+"#, " "),
        (#"([^' ])('[sS]|'[mM]|'[dD]|') "#, #"\1 \2 "#),
        (#"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "#, #"\1 \2 "#),
    ])

    private static let contractions = rules([
        (#"(?i)\b(can)(?#X)(not)\b"#, #" \1 \2 "#),
        (#"(?i)\b(d)(?#X)('ye)\b"#, #" \1 \2 "#),
        (#"(?i)\b(gim)(?#X)(me)\b"#, #" \1 \2 "#),
        (#"(?i)\b(gon)(?#X)(na)\b"#, #" \1 \2 "#),
        (#"(?i)\b(got)(?#X)(ta)\b"#, #" \1 \2 "#),
        (#"(?i)\b(lem)(?#X)(me)\b"#, #" \1 \2 "#),
        (#"(?i)\b(more)(?#X)('n)\b"#, #" \1 \2 "#),
        (#"(?i)\b(wan)(?#X)(na)(?=\s)"#, #" \1 \2 "#),
        (#"(?i) ('t)(?#X)(is)\b"#, #" \1 \2 "#),
        (#"(?i) ('t)(?#X)(was)\b"#, #" \1 \2 "#),
    ], flags: [])

    /// Number of rules; a smaller count would mean a pattern failed to compile (checked by tests).
    static var ruleCount: Int {
        startingQuotes.count + punctuation.count + brackets.count + endingQuotes.count + contractions.count
    }

    /// `nltk.word_tokenize(text)`.
    static func tokenize(_ text: Scalars) throws(RegexBudgetExceeded) -> [ArraySlice<Unicode.Scalar>] {
        var tokens: [ArraySlice<Unicode.Scalar>] = []
        for span in PunktSentenceTokenizer.english.sentenceSpans(text) {
            tokens.append(contentsOf: try tokenizeSentence(Array(text[span])))
        }
        return tokens
    }

    /// `NLTKWordTokenizer().tokenize(sentence)`.
    static func tokenizeSentence(_ sentence: Scalars) throws(RegexBudgetExceeded) -> [ArraySlice<Unicode.Scalar>] {
        var text = sentence
        for rule in startingQuotes + punctuation + brackets {
            text = try rule.regex.substitute(text, with: rule.template)
        }
        text = [" "] + text + [" "]
        for rule in endingQuotes + contractions {
            text = try rule.regex.substitute(text, with: rule.template)
        }
        return PythonText.splitWhitespace(text[...]).map { Array($0)[...] }
    }
}
