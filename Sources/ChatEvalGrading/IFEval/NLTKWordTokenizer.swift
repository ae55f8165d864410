/// A port of NLTK's `word_tokenize` (nltk 3.10: Punkt sentences, then `NLTKWordTokenizer`'s
/// ordered regex substitutions, then a whitespace split), which IFEval's
/// `change_case:capital_word_frequency` uses. The substitutions are NLTK's own patterns, run by
/// PCRE2. Each runs in time linear in the sentence (no nested or unbounded backtracking
/// repetition), so they are compiled as `linearTime` patterns (JIT, no step budget).
enum NLTKWordTokenizer {
    private struct Rule: Sendable {
        let regex: PythonRegex
        let template: ReplacementTemplate
        /// The characters the replacement writes.
        let written: CodeUnitSet

        init(regex: PythonRegex, template: ReplacementTemplate) {
            self.regex = regex
            self.template = template
            var written = CodeUnitSet()
            for case .literal(let text) in template.pieces { written.formUnion(CodeUnitSet(text)) }
            self.written = written
        }
    }

    /// nltk compiles these with `redos` (the `regex` module) except the contractions (`re`).
    private static func rules(_ pairs: [(String, String)], flags: RegexFlags = .regexModule) -> [Rule] {
        pairs.compactMap { pattern, template in
            // The patterns are fixed and known to compile; a failure would drop the rule rather than trap.
            (try? PythonRegex(pattern, flags: flags, linearTime: true)).map { Rule(regex: $0, template: ReplacementTemplate(template)) }
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

    private static let contractions = rules(
        [
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

    /// The rules run on the sentence, then those run on it padded with a space at each end.
    private static let unpaddedRules = startingQuotes + punctuation + brackets
    private static let paddedRules = endingQuotes + contractions

    /// Number of rules; a smaller count would mean a pattern failed to compile (checked by tests).
    static var ruleCount: Int { unpaddedRules.count + paddedRules.count }

    /// `nltk.word_tokenize(text)`: calls `body` with each token, in order. The tokens are slices
    /// of a sentence's tokenized text, not of `text`.
    static func forEachToken(
        in text: Scalars, matcher: RegexMatcher? = nil,
        _ body: (ArraySlice<Unicode.Scalar>) -> Void
    ) throws(PCRE2Error) {
        let runner: RegexMatcher
        if let matcher { runner = matcher } else { runner = try RegexMatcher() }
        for span in PunktSentenceTokenizer.english.sentenceSpans(text) {
            let tokenized = try substituted(Array(text[span]), matcher: runner)
            var i = 0
            while i < tokenized.count {
                while i < tokenized.count && PythonText.isSpace(tokenized[i]) { i += 1 }
                let start = i
                while i < tokenized.count && !PythonText.isSpace(tokenized[i]) { i += 1 }
                if i > start { body(tokenized[start..<i]) }
            }
        }
    }

    /// `NLTKWordTokenizer().tokenize(sentence)` before its final `split()`: the sentence with the
    /// rules applied, tokens separated by whitespace.
    private static func substituted(_ sentence: Scalars, matcher: RegexMatcher) throws(PCRE2Error) -> Scalars {
        var text = sentence
        // What the text may hold: its characters and those the rules wrote (removals not
        // tracked), to skip rules that cannot match.
        var present = CodeUnitSet(sentence)
        func apply(_ rule: Rule) throws(PCRE2Error) {
            guard rule.regex.code.mayMatch(present) else { return }
            text = try rule.regex.substitute(text, with: rule.template, using: matcher)
            present.formUnion(rule.written)
        }
        for rule in unpaddedRules { try apply(rule) }
        text.insert(" ", at: 0)
        text.append(" ")
        present.insert(0x20)
        for rule in paddedRules { try apply(rule) }
        return text
    }
}
