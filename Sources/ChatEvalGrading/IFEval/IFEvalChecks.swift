/// Google's IFEval instructions, under IFEval's ids and argument names, with the reference
/// implementation's semantics (lm-evaluation-harness `lm_eval/tasks/ifeval`), strict mode by default.
///
/// As in the harness, a blank answer (Python `strip()` empty) never follows an instruction.
/// Where the reference draws a random value for a missing argument, the argument is required
/// here. A value of 0 keeps its literal meaning (the harness drops falsy arguments and would
/// draw a random one instead). Every IFEval check also takes `mode`: `strict` (default) or
/// `loose` (IFEval's loose variant: also tries the answer without its first line, its last line,
/// both, and each of those with `*` removed).
enum IFEvalChecks {
    /// The 30 languages IFEval's `language:response_language` accepts (`instructions_util.LANGUAGE_CODES`).
    static let languageCodes = [
        "en", "es", "pt", "ar", "hi", "fr", "ru", "de", "ja", "it", "bn", "uk", "th", "ur", "ta", "te", "bg", "ko",
        "pl", "he", "fa", "vi", "ne", "sw", "kn", "mr", "gu", "pa", "ml", "fi",
    ]

    static let modeArgument = ArgumentInfo("mode", "strict | loose", required: false, "IFEval's strict (default) or loose evaluation.")

    private static func relationArgument(_ name: String) -> ArgumentInfo {
        ArgumentInfo(name, "\"less than\" | \"at least\"", required: true, "Comparison with the count.")
    }

    private static func countArgument(_ name: String, _ summary: String) -> ArgumentInfo {
        ArgumentInfo(name, "integer ≥ 0", required: true, summary)
    }

    private static func ifeval(
        _ id: String, _ summary: String, _ arguments: [ArgumentInfo] = [],
        _ build: @escaping @Sendable (ArgumentReader) throws(CheckDefinitionError) -> any IFEvalInstruction
    ) -> CheckFactory {
        CheckFactory(id, .ifeval, summary, arguments: arguments + [modeArgument]) { r throws(CheckDefinitionError) in
            let loose = try r.choice("mode", ["strict", "loose"], default: "strict") == "loose"
            return IFEvalCheck(id: id, instruction: try build(r), loose: loose)
        }
    }

    private static func relation(_ r: ArgumentReader, _ key: String) throws(CheckDefinitionError) -> IFEvalRelation {
        IFEvalRelation(rawValue: try r.choice(key, IFEvalRelation.allCases.map(\.rawValue))) ?? .atLeast
    }

    /// Compiles a keyword as the reference uses it: a regex, ignoring case. Nil only while
    /// validating a definition whose keyword still holds a `{{…}}` placeholder.
    private static func keywordRegex(_ r: ArgumentReader, _ key: String, _ pattern: String, index: Int?) throws(CheckDefinitionError)
        -> PythonRegex?
    {
        try r.regex(pattern, key: key, index: index, flags: .ignoreCase)
    }

    static let factories: [CheckFactory] = [
        ifeval(
            "keywords:existence", "Every keyword appears (a regex search, ignoring case).",
            [ArgumentInfo("keywords", "list of strings", required: true, "Keywords (regexes in the reference).")]
        ) { r throws(CheckDefinitionError) in
            let words = try r.stringList("keywords", allowSingle: false)
            var compiled: [(String, PythonRegex)] = []
            for (i, w) in words.enumerated() {
                guard let regex = try keywordRegex(r, "keywords", w, index: i) else { return UnresolvedPlaceholder() }
                compiled.append((w, regex))
            }
            return KeywordsExistence(keywords: compiled)
        },
        ifeval(
            "keywords:frequency", "The keyword occurs (ignoring case) less than / at least `frequency` times.",
            [
                ArgumentInfo("keyword", "string", required: true, "The keyword (a regex in the reference; trimmed)."),
                countArgument("frequency", "Number of occurrences."), relationArgument("relation"),
            ]
        ) { r throws(CheckDefinitionError) in
            let keyword = String(scalars: PythonText.strip(try r.nonEmptyString("keyword").scalars))
            guard !keyword.isEmpty else { throw r.error(.invalidValue, "keyword", "is blank", expected: "a keyword") }
            let frequency = try r.integer("frequency", minimum: 0)
            let relation = try relation(r, "relation")
            guard let regex = try keywordRegex(r, "keyword", keyword, index: nil) else { return UnresolvedPlaceholder() }
            return KeywordFrequency(keyword: keyword, regex: regex, frequency: frequency, relation: relation)
        },
        ifeval(
            "keywords:forbidden_words", "None of the words appears as a whole word (ignoring case).",
            [ArgumentInfo("forbidden_words", "list of strings", required: true, "Words that must not appear.")]
        ) { r throws(CheckDefinitionError) in
            let words = Array(Set(try r.stringList("forbidden_words", allowSingle: false))).sorted()
            var compiled: [(String, PythonRegex)] = []
            for w in words {
                guard let regex = try keywordRegex(r, "forbidden_words", #"\b"# + w + #"\b"#, index: nil) else {
                    return UnresolvedPlaceholder()
                }
                compiled.append((w, regex))
            }
            return ForbiddenWords(words: compiled)
        },
        ifeval(
            "keywords:letter_frequency", "The letter occurs (ignoring case) less than / at least `let_frequency` times.",
            [
                ArgumentInfo("letter", "one ASCII letter", required: true, "The letter."),
                countArgument("let_frequency", "Number of occurrences."), relationArgument("let_relation"),
            ]
        ) { r throws(CheckDefinitionError) in
            let letter = try r.string("letter").unicodeScalars
            guard letter.count == 1, let c = letter.first, c.isASCII, PythonText.isAlpha(c) else {
                throw r.error(
                    .invalidValue, "letter", "is \"\(String(letter))\"",
                    expected: "a single ASCII letter (IFEval draws a random one otherwise)")
            }
            return LetterFrequency(
                letter: PythonText.simpleLower(c), frequency: try r.integer("let_frequency", minimum: 0),
                relation: try relation(r, "let_relation"))
        },
        ifeval(
            "language:response_language", "The whole answer is in the language (ISO 639-1 code).",
            [
                ArgumentInfo(
                    "language", "ISO 639-1 code", required: true,
                    "One of IFEval's 30 languages: " + languageCodes.joined(separator: ", ") + ".")
            ]
        ) { r throws(CheckDefinitionError) in
            ResponseLanguage(language: try r.choice("language", languageCodes))
        },
        ifeval(
            "length_constraints:number_sentences", "Number of sentences (Punkt) less than / at least `num_sentences`.",
            [countArgument("num_sentences", "Sentence count threshold."), relationArgument("relation")]
        ) { r throws(CheckDefinitionError) in
            NumberOfSentences(threshold: try r.integer("num_sentences", minimum: 0), relation: try relation(r, "relation"))
        },
        ifeval(
            "length_constraints:number_paragraphs", "Exactly `num_paragraphs` paragraphs separated by ***.",
            [countArgument("num_paragraphs", "Paragraph count.")]
        ) { r throws(CheckDefinitionError) in
            NumberOfParagraphs(expected: try r.integer("num_paragraphs", minimum: 0))
        },
        ifeval(
            "length_constraints:number_words", "Number of words (\\w+ runs) less than / at least `num_words`.",
            [countArgument("num_words", "Word count threshold."), relationArgument("relation")]
        ) { r throws(CheckDefinitionError) in
            NumberOfWords(threshold: try r.integer("num_words", minimum: 0), relation: try relation(r, "relation"))
        },
        ifeval(
            "length_constraints:nth_paragraph_first_word",
            "Exactly `num_paragraphs` paragraphs (split by blank lines); paragraph `nth_paragraph` starts with `first_word`.",
            [
                countArgument("num_paragraphs", "Paragraph count."),
                ArgumentInfo("nth_paragraph", "integer in 1...num_paragraphs", required: true, "Which paragraph (from 1)."),
                ArgumentInfo("first_word", "string", required: true, "Its first word (compared lowercased)."),
            ]
        ) { r throws(CheckDefinitionError) in
            let count = try r.integer("num_paragraphs", minimum: 0)
            let nth = try r.integer("nth_paragraph", minimum: 1)
            guard nth <= count else {
                throw r.error(
                    .invalidValue, "nth_paragraph", "is \(nth), above num_paragraphs (\(count))",
                    expected: "1...num_paragraphs (IFEval draws a random one otherwise)")
            }
            return NthParagraphFirstWord(numParagraphs: count, nth: nth, firstWord: PythonText.lower(try r.string("first_word").scalars))
        },
        ifeval(
            "detectable_content:number_placeholders", "At least `num_placeholders` [placeholders] in square brackets.",
            [countArgument("num_placeholders", "Fewest placeholders.")]
        ) { r throws(CheckDefinitionError) in
            NumberOfPlaceholders(minimum: try r.integer("num_placeholders", minimum: 0))
        },
        ifeval(
            "detectable_content:postscript", "A postscript starting with the marker (P.S., P.P.S or any).",
            [ArgumentInfo("postscript_marker", "string", required: true, "The marker, e.g. \"P.S.\" (others are regexes, lowercased).")]
        ) { r throws(CheckDefinitionError) in
            let marker = String(scalars: PythonText.strip(try r.string("postscript_marker").scalars))
            let pattern = Postscript.pattern(for: marker)
            if pattern.regex == nil && !(r.validatingTemplates && Placeholders.containsUnresolved(marker)) {
                _ = try r.regex(pattern.pattern, key: "postscript_marker", flags: .multiline)
            }
            return Postscript(marker: marker, pattern: pattern)
        },
        ifeval(
            "detectable_format:number_bullet_lists", "Exactly `num_bullets` markdown bullet points (* or -).",
            [countArgument("num_bullets", "Bullet count.")]
        ) { r throws(CheckDefinitionError) in
            NumberOfBullets(expected: try r.integer("num_bullets", minimum: 0))
        },
        ifeval("detectable_format:constrained_response", "Contains \"My answer is yes.\", \"My answer is no.\" or \"My answer is maybe.\".")
        { _ throws(CheckDefinitionError) in
            ConstrainedResponse()
        },
        ifeval(
            "detectable_format:number_highlighted_sections", "At least `num_highlights` *highlighted* sections.",
            [countArgument("num_highlights", "Fewest highlights.")]
        ) { r throws(CheckDefinitionError) in
            NumberOfHighlights(minimum: try r.integer("num_highlights", minimum: 0))
        },
        ifeval(
            "detectable_format:multiple_sections", "At least `num_sections` sections marked `section_spliter` N.",
            [
                ArgumentInfo(
                    "section_spliter", "string", required: true, "The section word, e.g. \"Section\" (a regex in the reference; trimmed)."),
                countArgument("num_sections", "Fewest sections."),
            ]
        ) { r throws(CheckDefinitionError) in
            let splitter = String(scalars: PythonText.strip(try r.nonEmptyString("section_spliter").scalars))
            let minimum = try r.integer("num_sections", minimum: 0)
            guard let regex = try r.regex(#"\s?"# + splitter + #"\s?\d+\s?"#, key: "section_spliter") else {
                return UnresolvedPlaceholder()
            }
            return MultipleSections(splitter: splitter, regex: regex, minimum: minimum)
        },
        ifeval("detectable_format:json_format", "The answer is JSON (```json fences allowed).") { _ throws(CheckDefinitionError) in
            JSONFormat()
        },
        ifeval("detectable_format:title", "A title in double angular brackets, <<like this>>.") { _ throws(CheckDefinitionError) in
            Title()
        },
        ifeval("combination:two_responses", "Two different responses separated by ******.") { _ throws(CheckDefinitionError) in
            TwoResponses()
        },
        ifeval(
            "combination:repeat_prompt", "The answer starts by repeating the prompt (ignoring case).",
            [ArgumentInfo("prompt_to_repeat", "string", required: true, "The prompt to repeat.")]
        ) { r throws(CheckDefinitionError) in
            RepeatPrompt(prompt: try r.nonEmptyString("prompt_to_repeat"))
        },
        ifeval(
            "startend:end_checker", "The answer ends with the phrase (ignoring case and surrounding quotes).",
            [ArgumentInfo("end_phrase", "string", required: true, "The closing phrase.")]
        ) { r throws(CheckDefinitionError) in
            EndPhrase(phrase: String(scalars: PythonText.strip(try r.string("end_phrase").scalars)))
        },
        ifeval(
            "change_case:capital_word_frequency", "All-capital words (NLTK tokens) less than / at least `capital_frequency`.",
            [countArgument("capital_frequency", "Word count threshold."), relationArgument("capital_relation")]
        ) { r throws(CheckDefinitionError) in
            CapitalWordFrequency(frequency: try r.integer("capital_frequency", minimum: 0), relation: try relation(r, "capital_relation"))
        },
        ifeval("change_case:english_capital", "The answer is in English and in capital letters only.") { _ throws(CheckDefinitionError) in
            EnglishCase(upper: true)
        },
        ifeval("change_case:english_lowercase", "The answer is in English and in lowercase letters only.") {
            _ throws(CheckDefinitionError) in
            EnglishCase(upper: false)
        },
        ifeval("punctuation:no_comma", "No commas at all.") { _ throws(CheckDefinitionError) in
            NoComma()
        },
        ifeval("startend:quotation", "The answer is wrapped in double quotes.") { _ throws(CheckDefinitionError) in
            Quotation()
        },
    ]
}
