import ChatEvalCore
import Testing

@testable import ChatEvalGrading

/// Every answer-based check type on a passing answer, a failing one, an empty answer, a Unicode
/// answer (accents, CJK, emoji) and a ~1 MB answer. IFEval expectations come from the reference
/// (lm-evaluation-harness 0.4.13, nltk 3.10.4, strict mode), run on the same strings.
@Suite("Every check type")
struct EveryCheckTypeTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let type: String
        let arguments: CheckArgument.Map
        let passing: String
        let failing: String
        let empty: Bool
        /// nil: only that the check evaluates without error.
        let unicode: Bool?
        let megabyte: Bool?
        var testDescription: String { type }

        init(_ type: String, _ arguments: CheckArgument.Map, pass: String, fail: String, empty: Bool, unicode: Bool?, megabyte: Bool?) {
            self.type = type
            self.arguments = arguments
            passing = pass
            failing = fail
            self.empty = empty
            self.unicode = unicode
            self.megabyte = megabyte
        }
    }

    static let unicodeAnswer = "Ünïcödé naïve café — 東京タワー 🎉🎉 «quoted» done."

    static let rows: [Row] = [
        Row("equals", ["value": "ok"], pass: "ok", fail: "OK", empty: false, unicode: false, megabyte: false),
        Row("contains", ["value": "café"], pass: "un café", fail: "un cafe", empty: false, unicode: true, megabyte: true),
        Row("icontains", ["value": "CAFÉ"], pass: "un café", fail: "un cafe", empty: false, unicode: true, megabyte: true),
        Row("contains-all", ["value": ["café", "🎉"]], pass: "café 🎉", fail: "café", empty: false, unicode: true, megabyte: true),
        Row("contains-any", ["value": ["東京", "Paris"]], pass: "Paris", fail: "Rome", empty: false, unicode: true, megabyte: false),
        Row("icontains-all", ["value": ["CAFÉ", "DONE"]], pass: "Café done", fail: "café", empty: false, unicode: true, megabyte: false),
        Row("icontains-any", ["value": ["TOWER", "🎉"]], pass: "🎉", fail: "nothing", empty: false, unicode: true, megabyte: true),
        Row("starts-with", ["value": "Ünï"], pass: "Ünïcode", fail: "Unicode", empty: false, unicode: true, megabyte: false),
        Row("ends-with", ["value": "done."], pass: "all done.", fail: "done. yes", empty: false, unicode: true, megabyte: false),
        Row("regex", ["value": #"\d+"#], pass: "a1", fail: "abc", empty: false, unicode: false, megabyte: true),
        Row("one-of", ["value": ["yes", "no"]], pass: " yes ", fail: "maybe", empty: false, unicode: false, megabyte: false),
        Row("length", ["max": 10], pass: "short", fail: "much too long", empty: true, unicode: false, megabyte: false),
        Row("is-json", [:], pass: "[1]", fail: "[1", empty: false, unicode: false, megabyte: false),
        Row("json", ["required": ["a": "string"]], pass: #"{"a": "é"}"#, fail: #"{"a": 1}"#, empty: false, unicode: false, megabyte: false),
        Row(
            "levenshtein", ["value": "hello", "threshold": 1], pass: "hallo", fail: "help me", empty: false, unicode: false, megabyte: false
        ),
        Row("refusal", [:], pass: "I cannot do that.", fail: "Sure.", empty: true, unicode: false, megabyte: false),
        Row(
            "all", ["checks": [["type": "contains", "value": "café"], ["type": "not-contains", "value": "Paris"]]],
            pass: "café", fail: "café Paris", empty: false, unicode: true, megabyte: true),
        Row(
            "any", ["checks": [["type": "contains", "value": "🎉"], ["type": "contains", "value": "Paris"]]],
            pass: "Paris", fail: "Rome", empty: false, unicode: true, megabyte: true),
        Row(
            "not", ["check": ["type": "contains", "value": "Paris"]], pass: "Rome", fail: "Paris", empty: true, unicode: true,
            megabyte: true),
        Row("keywords:existence", ["keywords": ["café"]], pass: "un café", fail: "un thé", empty: false, unicode: true, megabyte: true),
        Row(
            "keywords:frequency", ["keyword": "café", "frequency": 2, "relation": "at least"], pass: "café CAFÉ", fail: "café",
            empty: false, unicode: false, megabyte: true),
        Row(
            "keywords:forbidden_words", ["forbidden_words": ["tower"]], pass: "no towers here", fail: "the tower", empty: false,
            unicode: true, megabyte: true),
        Row(
            "keywords:letter_frequency", ["letter": "e", "let_frequency": 3, "let_relation": "less than"], pass: "éé e", fail: "eee",
            empty: false, unicode: false, megabyte: false),
        Row(
            "length_constraints:number_sentences", ["num_sentences": 2, "relation": "at least"], pass: "One. Two.", fail: "Only one.",
            empty: false, unicode: false, megabyte: true),
        Row(
            "length_constraints:number_paragraphs", ["num_paragraphs": 2], pass: "A\n***\nB", fail: "A\n\nB", empty: false, unicode: false,
            megabyte: false),
        Row(
            "length_constraints:number_words", ["num_words": 3, "relation": "less than"], pass: "two words", fail: "three words here",
            empty: false, unicode: false, megabyte: false),
        Row(
            "length_constraints:nth_paragraph_first_word", ["num_paragraphs": 2, "nth_paragraph": 2, "first_word": "zwei"],
            pass: "Eins.\n\nZwei drei.", fail: "Eins.\n\nDrei.", empty: false, unicode: false, megabyte: false),
        Row(
            "detectable_content:number_placeholders", ["num_placeholders": 1], pass: "Dear [name],", fail: "Dear you,", empty: false,
            unicode: false, megabyte: false),
        Row(
            "detectable_content:postscript", ["postscript_marker": "P.S."], pass: "Hi.\nP.S. bye", fail: "Hi. bye", empty: false,
            unicode: false, megabyte: false),
        Row(
            "detectable_format:number_bullet_lists", ["num_bullets": 2], pass: "* a\n* b", fail: "* a", empty: false, unicode: false,
            megabyte: false),
        Row(
            "detectable_format:constrained_response", [:], pass: "My answer is no.", fail: "No.", empty: false, unicode: false,
            megabyte: false),
        Row(
            "detectable_format:number_highlighted_sections", ["num_highlights": 1], pass: "an *important* bit", fail: "plain", empty: false,
            unicode: false, megabyte: false),
        Row(
            "detectable_format:multiple_sections", ["section_spliter": "Section", "num_sections": 2], pass: "Section 1 a Section 2 b",
            fail: "Section 1 a", empty: false, unicode: false, megabyte: false),
        Row(
            "detectable_format:json_format", [:], pass: "{\"ok\": true}", fail: "{ok: true}",
            empty: false, unicode: false, megabyte: false),
        Row("detectable_format:title", [:], pass: "<<Title>> text", fail: "Title text", empty: false, unicode: false, megabyte: false),
        Row("combination:two_responses", [:], pass: "A\n******\nB", fail: "A only", empty: false, unicode: false, megabyte: false),
        Row(
            "combination:repeat_prompt", ["prompt_to_repeat": "Say hi."], pass: "Say hi. Hi!", fail: "Hi!", empty: false, unicode: false,
            megabyte: false),
        Row(
            "startend:end_checker", ["end_phrase": "The end."], pass: "Story. The end.", fail: "The end. Story.", empty: false,
            unicode: false, megabyte: false),
        Row(
            "change_case:capital_word_frequency", ["capital_frequency": 2, "capital_relation": "at least"], pass: "BIG AND small",
            fail: "Big and small", empty: false, unicode: false, megabyte: false),
        Row("punctuation:no_comma", [:], pass: "no commas", fail: "one, two", empty: false, unicode: true, megabyte: false),
        Row("startend:quotation", [:], pass: "\"quoted\"", fail: "not quoted", empty: false, unicode: false, megabyte: false),
        Row(
            "language:response_language", ["language": "en"], pass: "This is clearly an English sentence about the weather today.",
            fail: "Dies ist eindeutig ein deutscher Satz über das Wetter heute.", empty: false, unicode: nil, megabyte: nil),
        Row(
            "change_case:english_capital", [:], pass: "THIS IS CLEARLY AN ENGLISH SENTENCE ABOUT THE WEATHER.",
            fail: "This is not capital.", empty: false, unicode: false, megabyte: false),
        Row(
            "change_case:english_lowercase", [:], pass: "this is clearly an english sentence about the weather.",
            fail: "This Is Not.", empty: false, unicode: false, megabyte: false),
    ]

    @Test(arguments: rows)
    func passFailEmptyUnicodeMegabyte(_ row: Row) throws {
        let check = try makeCheck(row.type, row.arguments)
        let pass = check.evaluate(GradingSubject(answer: row.passing))
        #expect(pass.passed, "pass: \(pass.detail)")
        let fail = check.evaluate(GradingSubject(answer: row.failing))
        #expect(!fail.passed, "fail: \(fail.detail)")
        #expect(!fail.detail.isEmpty)
        let empty = check.evaluate(GradingSubject(answer: ""))
        #expect(empty.passed == row.empty, "empty: \(empty.detail)")
        let unicode = check.evaluate(GradingSubject(answer: Self.unicodeAnswer))
        #expect(!unicode.isError)
        if let expected = row.unicode { #expect(unicode.passed == expected, "unicode: \(unicode.detail)") }
        let big = check.evaluate(GradingSubject(answer: megabyteAnswer))
        #expect(!big.isError, "megabyte: \(big.detail)")
        if let expected = row.megabyte { #expect(big.passed == expected, "megabyte: \(big.detail)") }
        #expect(big.detail.count < 400)
    }

    @Test func everyAnswerBasedTypeIsCovered() {
        let covered = Set(Self.rows.map(\.type))
        let answerBased = CheckCatalogue.allTypes.filter { $0.family != .performance }.map(\.name)
        for name in answerBased { #expect(covered.contains(name), "\(name) has no row") }
    }
}
