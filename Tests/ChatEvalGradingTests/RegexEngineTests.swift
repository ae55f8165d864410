import ChatEvalCore
import Testing
@testable import ChatEvalGrading

@Suite("Regex engine (Python re semantics, linear time)")
struct RegexEngineTests {
    func spans(_ pattern: String, _ text: String, _ flags: RegexFlags = []) throws -> [[Int]] {
        try PythonRegex(pattern, flags: flags).matches(text.scalars).map { [$0.range.lowerBound, $0.range.upperBound] }
    }

    @Test func literalsClassesAndQuantifiers() throws {
        #expect(try spans("a+", "caaab a") == [[1, 4], [6, 7]])
        #expect(try spans("[a-c]{2}", "abcabc") == [[0, 2], [2, 4], [4, 6]])
        #expect(try spans(#"\d+(\.\d+)?"#, "pi is 3.14, e is 2") == [[6, 10], [17, 18]])
        #expect(try spans("colou?r", "color colour") == [[0, 5], [6, 12]])
        #expect(try spans("x{2,}", "x xx xxxx") == [[2, 4], [5, 9]])
    }

    @Test func lazyQuantifiersAndAlternationAreLeftmostFirst() throws {
        // Python: re.findall(r"\[.*?\]", "[a] [b]") -> two matches; greedy would take one.
        #expect(try spans(#"\[.*?\]"#, "[a] [b]") == [[0, 3], [4, 7]])
        #expect(try spans(#"\[.*\]"#, "[a] [b]") == [[0, 7]])
        // Alternation prefers the first branch that matches, not the longest.
        #expect(try spans("a|ab", "ab") == [[0, 1]])
    }

    @Test func emptyMatchesFollowPython37Rules() throws {
        // re.findall(r"a*", "baa") == ['', 'aa', ''] -> spans (0,0), (1,3), (3,3).
        #expect(try spans("a*", "baa") == [[0, 0], [1, 3], [3, 3]])
    }

    @Test func anchorsFollowPython() throws {
        // `$` without MULTILINE also matches before a final newline.
        #expect(try spans("b$", "ab\n") == [[1, 2]])
        #expect(try spans("^b", "a\nb") == [])
        #expect(try spans("^b", "a\nb", .multiline) == [[2, 3]])
        // `.` matches everything but \n (also \r), unless DOTALL.
        #expect(try spans("a.b", "a\rb a\nb") == [[0, 3]])
        #expect(try spans("a.b", "a\nb", .dotAll) == [[0, 3]])
    }

    @Test func unicodeClassesFollowPythonStr() throws {
        // \w: letters and numbers of any script, not combining marks.
        #expect(try spans(#"\w+"#, "café 日本 x²") == [[0, 4], [5, 7], [8, 10]])
        #expect(try spans(#"\w+"#, "e\u{301}") == [[0, 1]])
        // \s includes U+001C..U+001F and NBSP, not ZERO WIDTH SPACE.
        #expect(try spans(#"\s"#, "a\u{1C}b\u{A0}c\u{200B}") == [[1, 2], [3, 4]])
        // \d: decimal digits of any script.
        #expect(try spans(#"\d"#, "٣x") == [[0, 1]])
        // The regex-module flavour (nltk ≥ 3.10) counts marks as word characters.
        #expect(try spans(#"\w+"#, "e\u{301}", .regexModule) == [[0, 2]])
    }

    @Test func ignoreCaseUsesSimpleCaseFolding() throws {
        #expect(try spans("straße", "STRAßE", .ignoreCase) == [[0, 6]])
        #expect(try spans("k", "\u{212A}", .ignoreCase) == [[0, 1]])   // KELVIN SIGN folds to k
        #expect(try spans("[a-z]+", "ÉcoLE", .ignoreCase) == [[1, 5]])
        #expect(try spans("(?i)abc", "xABC") == [[1, 4]])
    }

    @Test func invalidPatternsAreRejectedWithPosition() {
        for pattern in ["(a", "a)", "[a", "*a", "a**", #"\q"#, "a{3,2}"] {
            #expect(throws: RegexSyntaxError.self) { try PythonRegex(pattern) }
        }
    }

    @Test func backtrackingOnlyFeaturesAreRejected() throws {
        for pattern in [#"(a)\1"#, "(?=a)", "(?!a)", "(?<=a)b", "(?<!a)b", "(?>a)", "(?P<x>a)(?P=x)", "a*+"] {
            let error = try #require(throws: RegexSyntaxError.self) { try PythonRegex(pattern) }
            #expect(error.message.contains("not supported"))
        }
    }

    @Test func catastrophicPatternRunsInLinearTime() throws {
        // (a+)+$ on "aaa…ab" takes exponential time in backtracking engines (Python, ICU).
        let text = String(repeating: "a", count: 50_000) + "b"
        let clock = ContinuousClock()
        let start = clock.now
        let match = try PythonRegex("(a+)+$").search(text.scalars)
        #expect(match == nil)
        #expect(clock.now - start < .seconds(10))
    }

    @Test func stepBudgetStopsTheSearch() throws {
        let text = String(repeating: "ab", count: 10_000).scalars
        #expect(throws: RegexBudgetExceeded.self) {
            _ = try PythonRegex("(a|b)*c").search(text, budget: 1_000)
        }
        #expect(try PythonRegex("(a|b)*c").search(text) == nil)
    }

    @Test func hugeCountedRepetitionsAreRejected() {
        #expect(throws: RegexSyntaxError.self) { try PythonRegex("(a{1000}){1000}") }
        #expect(throws: RegexSyntaxError.self) { try PythonRegex("a{5000}") }
    }

    @Test func substitutionUsesGroupReferences() throws {
        let regex = try PythonRegex(#"(\w+)@(\w+)"#)
        let out = try regex.substitute("mail bob@host now".scalars, with: ReplacementTemplate(#"\2 at \1 (\g<0>)"#))
        #expect(String(scalars: out) == "mail host at bob (bob@host) now")
    }

    @Test func bothEnginesAgree() throws {
        // Small texts run the bounded backtracker, large ones the Pike VM: same answers.
        let regex = try PythonRegex(#"\b(\w+)\s+x*(?:end|stop)\b"#)
        let unit = "words then end of it, more words stop. "
        let small = unit.scalars
        let large = String(repeating: unit, count: 20_000).scalars
        let smallMatches = try regex.matches(small).map(\.range)
        let largeMatches = try regex.matches(large).prefix(smallMatches.count).map(\.range)
        #expect(!smallMatches.isEmpty)
        #expect(smallMatches == Array(largeMatches))
    }

    @Test func placeholdersAreDetected() {
        #expect(Placeholders.containsUnresolved("Answer {{turn1.answer}} again"))
        #expect(Placeholders.containsUnresolved("unterminated {{ here"))
        #expect(!Placeholders.containsUnresolved("a{2}b{3,4} and { braces }"))
    }
}
