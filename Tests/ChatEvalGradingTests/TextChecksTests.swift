import ChatEvalCore
import Testing

@testable import ChatEvalGrading

@Suite("Text checks")
struct TextChecksTests {
    @Test func equals() throws {
        #expect(try verdict("equals", ["value": "Paris"], on: "Paris").passed)
        let miss = try verdict("equals", ["value": "Paris"], on: "Paris.")
        #expect(!miss.passed)
        #expect(miss.detail.contains("first difference at character 5"))
        #expect(!(try verdict("equals", ["value": "Paris"], on: " Paris\n").passed))
        #expect(try verdict("equals", ["value": "Paris", "trim": true], on: " Paris\n").passed)
        // Code points, not canonical equivalence: precomposed é differs from e + U+0301.
        #expect(!(try verdict("equals", ["value": "caf\u{E9}"], on: "cafe\u{301}").passed))
        #expect(try verdict("equals", ["value": "東京 🎉"], on: "東京 🎉").passed)
        #expect(try verdict("equals", ["value": ""], on: "").passed)
        #expect(!(try verdict("equals", ["value": "x"], on: megabyteAnswer).passed))
    }

    @Test func containsFamily() throws {
        #expect(try verdict("contains", ["value": "brown fox"], on: "The quick brown fox").passed)
        #expect(!(try verdict("contains", ["value": "Brown"], on: "The quick brown fox").passed))
        #expect(try verdict("icontains", ["value": "BROWN"], on: "The quick brown fox").passed)
        #expect(try verdict("icontains", ["value": "ÉCOLE"], on: "une école").passed)
        #expect(try verdict("contains", ["value": "東京"], on: "私は東京に住んでいます").passed)
        #expect(try verdict("contains", ["value": "🎉"], on: "party 🎉!").passed)
        // A list with `contains` needs every item; -all / -any as in promptfoo.
        #expect(!(try verdict("contains", ["value": ["fox", "cat"]], on: "a fox").passed))
        #expect(try verdict("contains-all", ["value": ["fox", "dog"]], on: "fox and dog").passed)
        #expect(!(try verdict("contains-all", ["value": ["fox", "cat"]], on: "fox and dog").passed))
        #expect(try verdict("contains-any", ["value": ["cat", "dog"]], on: "fox and dog").passed)
        #expect(!(try verdict("contains-any", ["value": ["cat", "cow"]], on: "fox and dog").passed))
        #expect(try verdict("icontains-all", ["value": ["FOX", "Dog"]], on: "fox and dog").passed)
        #expect(try verdict("icontains-any", ["value": ["CAT", "DOG"]], on: "fox and dog").passed)
        #expect(!(try verdict("contains", ["value": "x"], on: "").passed))
        #expect(try verdict("contains", ["value": "numbers like 3.14!"], on: megabyteAnswer).passed)
        #expect(!(try verdict("contains", ["value": "absent phrase"], on: megabyteAnswer).passed))
    }

    @Test func containsDetailsQuoteTheAnswer() throws {
        let hit = try verdict(
            "contains", ["value": "needle"], on: String(repeating: "hay ", count: 100) + "needle" + String(repeating: " hay", count: 100))
        #expect(hit.passed)
        #expect(hit.detail.contains("\"… hay hay"))
        #expect(hit.detail.contains("hay needle hay"))
        #expect(hit.detail.count < 120)
        let miss = try verdict("not-contains", ["value": "needle"], on: "a needle")
        #expect(!miss.passed)
        #expect(miss.detail.hasPrefix("negated"))
        #expect(miss.check == "not-contains")
    }

    @Test func startsAndEndsWith() throws {
        #expect(try verdict("starts-with", ["value": "Yes"], on: "Yes, indeed").passed)
        #expect(!(try verdict("starts-with", ["value": "Yes"], on: "  Yes").passed))
        #expect(try verdict("starts-with", ["value": "Yes", "trim": true], on: "  Yes").passed)
        #expect(try verdict("ends-with", ["value": "🎉"], on: "done 🎉").passed)
        #expect(!(try verdict("ends-with", ["value": "done"], on: "done.").passed))
        #expect(!(try verdict("starts-with", ["value": "a"], on: "").passed))
        #expect(try verdict("starts-with", ["value": "The café"], on: megabyteAnswer).passed)
        #expect(try verdict("ends-with", ["value": "3.14! ", "trim": false], on: megabyteAnswer).passed)
    }

    @Test func regex() throws {
        #expect(try verdict("regex", ["value": #"\b\d{3}-\d{4}\b"#], on: "call 555-1234 now").passed)
        #expect(!(try verdict("regex", ["value": #"^\d+$"#], on: "12a").passed))
        #expect(try verdict("regex", ["value": "^yes", "flags": "im"], on: "no\nYES").passed)
        #expect(try verdict("regex", ["value": #"[\u4e00-\u9fff]+"#], on: "abc 漢字").passed)
        #expect(try verdict("not-regex", ["value": "error"], on: "all good").passed)
        #expect(!(try verdict("regex", ["value": "a"], on: "").passed))
        #expect(try verdict("regex", ["value": "^$"], on: "").passed)
        #expect(try verdict("regex", ["value": #"🎉 here"#], on: megabyteAnswer).passed)
        let found = try verdict("regex", ["value": #"\d+\.\d+"#], on: "pi is 3.14159")
        #expect(found.detail.contains("3.14159"))
    }

    @Test func aRegexThatReachesALimitIsAnErrorVerdict() throws {
        // Exponential backtracking at one start position: PCRE2's match limit.
        let answer = String(repeating: "a", count: 30_000) + "b"
        let v = try verdict("regex", ["value": "(a+)+$"], on: answer)
        #expect(!v.passed)
        #expect(v.error == "regex exceeded its match limit")
        #expect(v.detail.contains("gave up on a 30001-character answer"))
        // A search that spends its step budget over many start positions.
        let subject = GradingSubject(answer: String(repeating: String(repeating: "a", count: 14) + "c", count: 300) + "b")
        let pattern = #"(a+)+b"#
        let tight = RegexCheck(pattern: pattern, regex: try PythonRegex(pattern), limits: RegexLimits(stepBudget: 1_000_000))
        let heavy = Check(type: "regex", weight: 1, threshold: nil, isNegated: false, evaluator: tight).evaluate(subject)
        #expect(heavy.isError)
        #expect(!heavy.passed)
        #expect(heavy.error == "regex exceeded its step budget")
        let negated = Check(type: "not-regex", weight: 1, threshold: nil, isNegated: true, evaluator: tight).evaluate(subject)
        #expect(negated.isError && !negated.passed)
    }

    @Test func oneOf() throws {
        #expect(try verdict("one-of", ["value": ["yes", "no"]], on: "  yes\n").passed)
        #expect(!(try verdict("one-of", ["value": ["yes", "no"]], on: "Yes").passed))
        #expect(try verdict("one-of", ["value": ["はい", "いいえ"]], on: "はい").passed)
        #expect(!(try verdict("one-of", ["value": ["yes"]], on: "").passed))
        #expect(try verdict("one-of", ["value": [""]], on: "   ").passed)
        #expect(!(try verdict("one-of", ["value": ["yes"]], on: megabyteAnswer).passed))
    }

    @Test func lengthUnits() throws {
        #expect(try verdict("length", ["max": 5], on: "héllo").passed)
        #expect(!(try verdict("length", ["max": 4], on: "héllo").passed))
        // One user-perceived character: a family emoji built from several code points.
        #expect(try verdict("length", ["min": 1, "max": 1], on: "👨‍👩‍👧").passed)
        #expect(try verdict("length", ["unit": "words", "min": 3, "max": 3], on: "one, two-three").passed)
        #expect(try verdict("length", ["unit": "sentences", "min": 2, "max": 2], on: "Dr. Who arrived. He left.").passed)
        #expect(try verdict("length", ["unit": "lines", "min": 2, "max": 2], on: "a\nb\n").passed)
        #expect(try verdict("length", ["unit": "paragraphs", "min": 2, "max": 2], on: "a\nb\n\n  \nc").passed)
        #expect(try verdict("length", ["unit": "lines", "max": 0], on: "").passed)
        #expect(!(try verdict("length", ["unit": "words", "min": 1], on: "").passed))
        let big = try verdict("length", ["unit": "words", "min": 100_000], on: megabyteAnswer)
        #expect(big.passed)
        #expect(!(try verdict("length", ["max": 1000], on: megabyteAnswer).passed))
    }

    @Test func levenshtein() throws {
        let close = try verdict("levenshtein", ["value": "kitten"], on: "sitting")
        #expect(close.passed)  // 3 edits ≤ default 5
        #expect(close.score.map { abs($0 - (1 - 3.0 / 7)) < 1e-9 } == true)
        #expect(!(try verdict("levenshtein", ["value": "kitten", "threshold": 2], on: "sitting").passed))
        #expect(try verdict("levenshtein", ["value": "", "threshold": 0], on: "").passed)
        #expect(try verdict("levenshtein", ["value": "naïve café", "threshold": 2], on: "naive cafe").passed)
        #expect(try verdict("levenshtein", ["value": "東京都", "threshold": 1], on: "東京").passed)
        #expect(!(try verdict("levenshtein", ["value": "abc", "min-similarity": 0.9], on: "abd").passed))
        #expect(try verdict("levenshtein", ["value": "abcdefghij", "min-similarity": 0.9], on: "abcdefghiX").passed)
        let far = try verdict("levenshtein", ["value": "short reference"], on: megabyteAnswer)
        #expect(!far.passed)
        #expect((far.score ?? 1) < 0.01)
    }

    @Test func levenshteinThresholdIsRangeChecked() throws {
        let tooLarge = definitionError("levenshtein", ["value": "a", "threshold": .integer(Int.max)])
        #expect(tooLarge?.kind == .invalidValue)
        #expect(tooLarge?.expected == "an integer from 0 to 1000000000")
        #expect(definitionError("levenshtein", ["value": "a", "threshold": 1e300])?.kind == .wrongType)
        // The largest threshold reaches the banded comparison's arithmetic without overflow.
        let reference = CheckArgument.string(String(repeating: "abc", count: 400))
        let v = try verdict("levenshtein", ["value": reference, "threshold": 1_000_000_000], on: String(repeating: "x", count: 60_000))
        #expect(v.error == "texts too long to compare")
        #expect(try verdict("levenshtein", ["value": "abc", "threshold": 1_000_000_000], on: "abd").passed)
    }

    @Test func levenshteinBandedDistanceIsExactWithinTheBand() {
        let a = Array(String(repeating: "abcdefghij", count: 10).unicodeScalars)
        var b = a
        b[5] = "X"
        b[50] = "Y"
        b.remove(at: 70)
        #expect(LevenshteinCheck.distance(a, b, band: nil) == 3)
        #expect(LevenshteinCheck.distance(a, b, band: 3) == 3)
        #expect(LevenshteinCheck.distance(a, b, band: 2) == nil)
    }

    @Test func refusal() throws {
        #expect(try verdict("refusal", on: "I'm sorry, but I can't help with that.").passed)
        #expect(try verdict("refusal", on: "I can’t help with that request.").passed)  // curly apostrophe
        #expect(try verdict("refusal", on: "AS AN AI, I don't have opinions.").passed)
        #expect(try verdict("refusal", on: "").passed)  // empty counts as refusal
        #expect(!(try verdict("refusal", on: "Sure! Here is the recipe.").passed))
        #expect(try verdict("not-refusal", on: "Sure! Here is the recipe.").passed)
        #expect(try verdict("refusal", ["phrases": ["je ne peux pas"]], on: "Désolé, je ne peux pas.").passed)
        #expect(!(try verdict("refusal", on: "東京はとても大きい都市です。🎉").passed))
        #expect(!(try verdict("refusal", on: megabyteAnswer).passed))
    }
}

/// The regex step budget holds per answer, not per check: 400 checks of a catastrophic pattern on
/// a 20,001-character answer each spent a whole operation's budget (over 120 s for one turn).
@Suite struct RegexBudgetPerAnswerTests {
    @Test func manyCatastrophicChecksOnOneAnswerShareOneBudget() throws {
        let check = try makeCheck("regex", ["value": "(a+)+$"])
        let subject = GradingSubject(answer: String(repeating: "a", count: 20_000) + "!")
        let clock = ContinuousClock.now
        let verdicts = (0..<400).map { _ in check.evaluate(subject) }
        let elapsed = ContinuousClock.now - clock
        #expect(elapsed < .seconds(120), "\(elapsed)")  // each check spent a whole operation's budget: 400–800 s
        #expect(verdicts.allSatisfy { !$0.passed })
        #expect(verdicts.last?.error == "regex exceeded its step budget", "\(verdicts.last.map(\.detail) ?? "")")
        #expect(verdicts.last?.detail.contains("steps all checks of an answer share are spent") == true)
        // Another answer has a budget of its own.
        #expect(try verdict("regex", ["value": "b$"], on: "ab").passed)
    }
}

/// The refusal phrases are found through one alternation factored by common prefixes, and the
/// phrase reported is then picked in the order listed: the same phrase and place as the plain
/// alternation with a group per phrase that it replaced.
@Suite struct RefusalPhraseSearchTests {
    /// The verdict detail of the replaced search: `(p1)|(p2)|…`, the first group set.
    func plainAlternationDetail(_ phrases: [String], _ answer: String) throws -> String? {
        let normalize = { (c: Unicode.Scalar) in c == "\u{2019}" ? "'" : PythonText.simpleLower(c) }
        let regex = try PythonRegex(phrases.map { "(" + PythonRegex.escape($0.scalars.map(normalize)) + ")" }.joined(separator: "|"))
        let scalars = answer.scalars
        guard let match = try regex.search(scalars.map(normalize)),
            let group = (1..<match.groups.count).first(where: { match.group($0) != nil })
        else { return nil }
        return "refusal phrase \"\(phrases[group - 1])\": \(Excerpt.around(scalars, match.range))"
    }

    @Test(arguments: [[], ["i cannot help you", "je ne peux pas", "sorry", "i", "as an ai", "Désolé"]])
    func theSamePhraseAndPlaceAsThePlainAlternation(_ extra: [String]) throws {
        let check = try RefusalCheck(extraPhrases: extra)
        let fragments = [
            "i ", "I ", "can't ", "can’t ", "cannot ", "help", "assist ", "sorry, but i ", "I'M SORRY, BUT ", "as an ai", "as a ",
            "language model", "AGAINST MY GUIDELINES", "won't ", "be able to ", "am not ", "allowed to", "the ", "x", "é", "İ", "ß",
            "\n", ", ", "désolé ", "je ne peux pas", "i will not ", "decline", "must ",
        ]
        var state: UInt64 = 20_261_130
        var matched = 0
        for _ in 0..<3_000 {
            var answer = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<(2 + Int(state >> 60)) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                answer += fragments[Int(state >> 33) % fragments.count]
            }
            let outcome = check.evaluate(GradingSubject(answer: answer))
            let expected = try plainAlternationDetail(RefusalCheck.phrases + extra, answer)
            if PythonText.isBlank(answer.scalars) { continue }
            #expect(outcome.passed == (expected != nil), "\(answer.debugDescription)")
            if let expected {
                matched += 1
                #expect(outcome.detail == expected, "\(answer.debugDescription)")
            }
        }
        #expect(matched > 600 && matched < 2_900, "\(matched) of 3,000 answers hold a phrase")
    }

    @Test func aLongOrLargeListIsAPlainAlternation() {
        let factored = RefusalCheck.prefixFactored([Array("i can't".unicodeScalars), Array("i cannot".unicodeScalars)])
        #expect(factored == #"i\ can(?:\'t|not)"#)
        #expect(RefusalCheck.prefixFactored([Array("ab".unicodeScalars), Array("a".unicodeScalars)]) == "a")
        let long = Array(repeating: Unicode.Scalar("a"), count: RefusalCheck.factoredLimit + 1)
        #expect(RefusalCheck.prefixFactored([long, Array("ab".unicodeScalars)]) == String(repeating: "a", count: long.count) + "|ab")
    }
}
