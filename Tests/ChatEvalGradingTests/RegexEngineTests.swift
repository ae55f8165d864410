import ChatEvalCore
import Foundation
import Testing

@testable import ChatEvalGrading

@Suite("Regex (Python re semantics on PCRE2)")
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
        #expect(try spans("k", "\u{212A}", .ignoreCase) == [[0, 1]])  // KELVIN SIGN folds to k
        #expect(try spans("[a-z]+", "ÉcoLE", .ignoreCase) == [[1, 5]])
        #expect(try spans("(?i)abc", "xABC") == [[1, 4]])
    }

    @Test func invalidPatternsAreRejectedWithPythonsMessages() throws {
        let cases: [(String, String, Int)] = [
            ("(a", "missing ), unterminated subpattern", 0), ("a)", "unbalanced parenthesis", 1),
            ("[a", "unterminated character set", 0), ("*a", "nothing to repeat", 0), ("a**", "multiple repeat", 2),
            (#"\q"#, "bad escape \\q", 0), ("a{3,2}", "min repeat greater than max repeat", 2),
            (#"(a)\2"#, "invalid group reference 2", 4), (#"(a\1)"#, "cannot refer to an open group", 2),
            ("x(?i)", "global flags not at the start of the expression", 1), ("(?<n>a)", "unknown extension ?<", 1),
            (#"[\w-z]"#, "bad character range \\w-z", 1), ("^*", "nothing to repeat", 1), (#"\x4"#, "incomplete escape \\x4", 0),
        ]
        for (pattern, message, offset) in cases {
            let error = try #require(throws: RegexSyntaxError.self) { try PythonRegex(pattern) }
            #expect(error.message.hasPrefix(message), "\(pattern): \(error.message)")
            #expect(error.offset == offset, "\(pattern)")
        }
    }

    @Test func pcre2ExtensionsThatPythonRejectsAreRejected() {
        // PCRE2 would run these with meanings Python's re does not have.
        for pattern in ["(*CR)a", "(?R)", "(?C1)a", #"\p{L}"#, #"\Ka"#, #"\h"#, "(?|a)", "(?P>x)", "(?a)x", #"\N{DIGIT ONE}"#] {
            #expect(throws: RegexSyntaxError.self, "\(pattern)") { try PythonRegex(pattern) }
        }
    }

    @Test func lookAroundBackReferencesAndPython311Syntax() throws {
        // Expected values from Python 3.11's re.
        #expect(try spans(#"(\w)\1"#, "aabbc") == [[0, 2], [2, 4]])
        #expect(try spans(#"(?<=\$)\d+"#, "cost $42 and 7") == [[6, 8]])
        #expect(try spans(#"(?<![\w-])foo(?!bar)"#, "foo foobar -foo") == [[0, 3]])
        #expect(try spans(#"(?P<q>['"]).*?(?P=q)"#, #"say "hi" and 'yo'"#) == [[4, 8], [13, 17]])
        #expect(try spans("(a)?(?(1)b|c)", "ab c") == [[0, 2], [3, 4]])
        #expect(try spans("(?>a+)b", "aab") == [[0, 3]])
        #expect(try spans("C++", "I code in c.", .ignoreCase) == [[2, 3], [10, 11]])  // possessive since Python 3.11
        #expect(try spans("x{,2}", "xxx") == [[0, 2], [2, 3], [3, 3]])
        #expect(try spans("a{}", "a{}") == [[0, 3]])  // a literal brace pair
        #expect(try spans("(?x) a  b # comment\n c", "abc") == [[0, 3]])
        #expect(try spans("[[:alpha:]]+", "a:[p]") == [[3, 5]])  // [ is a literal in a class
        #expect(try spans(#"\x41\u00e9\U0001F389\101"#, "Aé🎉A") == [[0, 4]])
        #expect(try spans(#"[^\W\d]+"#, "ab12_cd") == [[0, 2], [4, 7]])
        #expect(try spans(#"[\W\d]+"#, "ab12 -cd") == [[2, 6]])
    }

    @Test func textEndAndVerticalTabFollowPython() throws {
        // Python's \Z is the very end (PCRE2's \z); \v is VT, not a class of vertical space.
        #expect(try spans(#"a\Z"#, "a\na") == [[2, 3]])
        #expect(try spans(#"a$"#, "a\na\n") == [[2, 3]])
        #expect(try spans(#"\v"#, "\u{0B}\n") == [[0, 1]])
        #expect(try spans("(?m)^", "a\n") == [[0, 0], [2, 2]])
    }

    @Test func wordBoundariesFollowPythonsWordClass() throws {
        // A combining mark is not a word character for re: boundaries on both sides of it.
        #expect(try spans(#"\b"#, "e\u{301}t") == [[0, 0], [1, 1], [2, 2], [3, 3]])
        #expect(try spans(#"\bcat\b"#, "cat concatenate (cat)", .ignoreCase) == [[0, 3], [17, 20]])
        #expect(try spans(#"\B"#, "ab") == [[1, 1]])
        #expect(try spans(#"\s"#, "a\u{1C}b\u{180E}c") == [[1, 2]])
    }

    @Test func catastrophicBacktrackingIsStoppedByTheMatchLimit() throws {
        // (a+)+$ on "aaa…ab" is exponential at the first start position.
        let text = (String(repeating: "a", count: 30) + "b").scalars
        let error = try #require(throws: PCRE2Error.self) { try PythonRegex("(a+)+$").search(text) }
        #expect(error.code == .matchLimit)
        #expect(error.function == "pcre2_match_32")
        #expect(error.message == "match limit exceeded")
    }

    @Test func theStepBudgetBoundsAWholeSearch() throws {
        // Every start position of each run of a's stays under PCRE2's match limit, which starts
        // again at each position; the step budget counts the whole search.
        let text = (String(repeating: String(repeating: "a", count: 14) + "c", count: 300) + "b").scalars
        let small = RegexLimits(stepBudget: 2_000_000)
        let error = try #require(throws: PCRE2Error.self) { try PythonRegex("(a+)+b").search(text, limits: small) }
        #expect(error.code == .stepBudget)
        #expect(error.limitName == "step budget")
        // A scan inside one item is paid for too: a*+ from every start of a long run.
        let run = (String(repeating: "a", count: 20_000) + "cb").scalars
        #expect(throws: PCRE2Error.self) { try PythonRegex("a*+b").search(run, limits: small) }
        #expect(try PythonRegex("(a|b)*c").search(String(repeating: "ab", count: 10_000).scalars) == nil)
    }

    @Test func depthAndHeapLimitsAreErrors() throws {
        let text = String(repeating: "ab", count: 5_000).scalars
        let shallow = RegexLimits(depthLimit: 100)
        let deep = try #require(throws: PCRE2Error.self) { try PythonRegex("(?:ab)*$").search(text, limits: shallow) }
        #expect(deep.code == .depthLimit)
        let tiny = RegexLimits(heapLimitKiB: 1)
        let heap = try #require(throws: PCRE2Error.self) { try PythonRegex("(?:(a)|b)*$").search(text, limits: tiny) }
        #expect(heap.code == .heapLimit)
        #expect(try PythonRegex("(?:ab)*$").search(text)?.range == 0..<10_000)
    }

    @Test func deeplyNestedGroupsAreASyntaxErrorNotAStackOverflow() throws {
        let deep = String(repeating: "(", count: 40_000) + "a" + String(repeating: ")", count: 40_000)
        let error = try #require(throws: RegexSyntaxError.self) { try PythonRegex(deep) }
        #expect(error.message == "parentheses are too deeply nested")
        #expect(error.offset == Int(regexParenthesesNestLimit) + 1)
    }

    @Test func countsAbovePCRE2sLimitAreRejected() {
        // Python allows counts up to 4,294,967,295; PCRE2 up to 65,535.
        #expect(throws: RegexSyntaxError.self) { try PythonRegex("a{70000}") }
    }

    @Test func substitutionUsesGroupReferences() throws {
        let regex = try PythonRegex(#"(\w+)@(\w+)"#)
        let out = try regex.substitute("mail bob@host now".scalars, with: ReplacementTemplate(#"\2 at \1 (\g<0>)"#), using: RegexMatcher())
        #expect(String(scalars: out) == "mail host at bob (bob@host) now")
    }

    @Test func linearTimePatternsMatchAsOthers() throws {
        // JIT-compiled without step counting, the same matches.
        let pattern = #"\b(\w+)\s+x*(?:end|stop)\b"#
        let text = String(repeating: "words then end of it, more words stop. ", count: 2_000).scalars
        let counted = try PythonRegex(pattern).matches(text).map(\.groups)
        let linear = try PythonRegex(pattern, linearTime: true).matches(text).map(\.groups)
        #expect(counted.count == 4_000)
        #expect(counted == linear)
    }

    @Test func patternsAreCompiledOnce() throws {
        let first = try PythonRegex("compiled once: [a-z]+")
        let second = try PythonRegex("compiled once: [a-z]+")
        #expect(first.code === second.code)
        #expect(try PythonRegex("compiled once: [a-z]+", flags: .ignoreCase).code !== first.code)
        // Canonically equivalent patterns are different patterns to Python: KELVIN SIGN is not K.
        #expect(try spans("\u{212A}", "K\u{212A}") == [[1, 2]])
        #expect(try spans("K", "K\u{212A}") == [[0, 1]])
        #expect(try spans("e\u{301}", "\u{E9}e\u{301}") == [[1, 3]])
    }

    /// 3,000 random patterns, flags and texts (scripts/regex-reference.py) with the spans Python
    /// 3.11's `re.finditer` gives: look-around, back-references, conditionals, verbose mode,
    /// possessive and atomic forms, Unicode classes and case folding.
    @Test func agreesWithPythonOnGeneratedPatterns() throws {
        let cases = try Self.generatedCases()
        #expect(cases.count == 3_000)
        for c in cases {
            #expect(
                try spans(c.pattern, c.text, c.regexFlags) == c.spans,
                "\(c.pattern.debugDescription) flags \(c.flags) on \(c.text.debugDescription)")
        }
    }

    struct GeneratedCase: Decodable {
        let pattern: String
        let flags: Int
        let text: String
        let spans: [[Int]]

        var regexFlags: RegexFlags {
            var flags: RegexFlags = []
            if self.flags & 2 != 0 { flags.insert(.ignoreCase) }  // re.I, re.M, re.S
            if self.flags & 8 != 0 { flags.insert(.multiline) }
            if self.flags & 16 != 0 { flags.insert(.dotAll) }
            return flags
        }
    }

    static func generatedCases() throws -> [GeneratedCase] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/python-re.jsonl")
        let decoder = JSONDecoder()
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
            try decoder.decode(GeneratedCase.self, from: Data($0.utf8))
        }
    }

    /// A `finditer` through `matcher`: the spans, or the error that stopped it, and the steps charged.
    func finditer(_ regex: PythonRegex, _ text: Scalars, _ matcher: RegexMatcher) -> (Result<[[Int]], PCRE2Error>, steps: Int) {
        var spans: [[Int]] = []
        let outcome = Result { () throws(PCRE2Error) -> [[Int]] in
            try regex.forEachMatch(in: text, with: matcher) { matcher in
                if let range = matcher.group(0) { spans.append([range.lowerBound, range.upperBound]) }
                return true
            }
            return spans
        }
        return (outcome, matcher.stepsUsed)
    }

    /// Step-counted patterns run first as JIT code (`RegexMatcher`), which must give what the
    /// interpreter alone gives: the same matches, the same steps charged, the same errors at the
    /// limits. The generated cases, the bench's patterns, and cases built to reach each limit.
    @Test func theJITGivesTheInterpretersMatchesStepsAndErrors() throws {
        var cases = try Self.generatedCases().map { ($0.pattern, $0.regexFlags, $0.text, RegexLimits.standard) }
        let sentences = "The U.S. economy grew by 2.5% last year. Café au lait costs €3.50. P.S. lorem  IPSUM, 日本語の文。"
        for pattern in [#"\b\d+(\.\d+)?%"#, #"(?i)lorem\s+ipsum"#, #"\bfox\b"#, #"(\w+)\s+\1"#] {
            cases.append((pattern, [], String(repeating: sentences, count: 3), .standard))
        }
        let backtracking = String(repeating: String(repeating: "a", count: 14) + "c", count: 300) + "b"
        cases += [
            ("(a+)+b", [], backtracking, RegexLimits(stepBudget: 1_000_000)),  // the step budget, past the allowance
            ("(a+)+b", [], backtracking, RegexLimits(stepBudget: 50_000)),  // the step budget, inside the allowance
            ("(a+)+$", [], String(repeating: "a", count: 30) + "b", .standard),  // the match limit
            ("(?:ab)*$", [], String(repeating: "ab", count: 5_000), RegexLimits(depthLimit: 100)),
            ("(?:(a)|b)*$", [], String(repeating: "ab", count: 5_000), RegexLimits(heapLimitKiB: 1)),
            (#"(\w+)zzz\b"#, [], String(repeating: "a b ", count: 40_000) + "zzz", .standard),  // matches past the allowance
            // Past 200,000 code points the engines skip a text without '%' differently.
            (#"q\d+%"#, [], "q1" + String(repeating: " ", count: 250_000), .standard),
            (#"(?:a|b)*$"#, [], String(repeating: "ab", count: 5_000), .standard),  // past the JIT's stack
        ]
        var answered = 0, handedOver = 0
        for (pattern, flags, text, limits) in cases {
            let regex = try PythonRegex(pattern, flags: flags)
            regex.code.makeJITCopy()
            let jit = try RegexMatcher(limits: limits)
            let interpreter = try RegexMatcher(limits: limits, triesJIT: false)
            let (withJIT, jitSteps) = finditer(regex, text.scalars, jit)
            let (alone, steps) = finditer(regex, text.scalars, interpreter)
            #expect(withJIT == alone, "\(pattern.debugDescription) on \(text.prefix(60).debugDescription)")
            #expect(jitSteps == steps, "\(pattern.debugDescription) on \(text.prefix(60).debugDescription)")
            #expect(interpreter.jitAnswered == 0 && interpreter.jitHandedOver == 0)
            answered += jit.jitAnswered
            handedOver += jit.jitHandedOver
        }
        // Both paths ran: the JIT answered nearly every call, and handed the limits' cases over.
        #expect(answered > 3_000)
        #expect((7..<20).contains(handedOver), "\(handedOver)")
    }

    /// A pattern whose JIT code ran out of its stack runs in the interpreter from then on: the
    /// JIT would run out again on every call before handing it over.
    @Test func aPatternThatExhaustsTheJITStackStaysInTheInterpreter() throws {
        let regex = try PythonRegex("jit stack: (?:a|b)*c")
        regex.code.makeJITCopy()
        let matcher = try RegexMatcher()
        let text = ("jit stack: " + String(repeating: "ab", count: 5_000)).scalars
        #expect(try regex.search(text, with: matcher) == nil)
        #expect(matcher.jitHandedOver == 1 && regex.code.jitPointer() == nil)
        #expect(try regex.search(text, with: matcher) == nil)
        #expect(matcher.jitHandedOver == 1 && matcher.jitAnswered == 0)
    }

    /// A step-counted pattern is JIT-compiled once it is in use, not for a single answer, and
    /// never when it is long; the library's linear-time patterns from the start.
    @Test func aPatternIsJITCompiledOnlyOnceItIsInUse() throws {
        let matcher = try RegexMatcher()
        // One `findall` of many matches is one operation: no JIT copy for it.
        let once = try PythonRegex("jit once [0-9]")
        let many = String(repeating: "jit once 7 ", count: 50).scalars
        #expect(try once.matches(many).count == 50)
        #expect(once.code.jitPointer() == nil)
        let fresh = try PythonRegex("jit-on-use [a-z]+ \\d")
        for operation in 1...4 {
            #expect(try fresh.search("a jit-on-use word 7".scalars, with: matcher)?.range == 2..<19)
            #expect(matcher.jitAnswered == max(0, operation - PCRE2Code.jitAfterOperations), "operation \(operation)")
        }
        let long = try PythonRegex("(?:x|" + String(repeating: "a", count: PCRE2Code.jitUnitLimit) + ")")
        for _ in 1...4 { #expect(try long.search("yx".scalars, with: matcher)?.range == 1..<2) }
        #expect(matcher.jitAnswered == 2 && long.code.jitPointer() == nil)
    }

    @Test func placeholdersAreDetected() {
        #expect(Placeholders.containsUnresolved("Answer {{turn1.answer}} again"))
        #expect(Placeholders.containsUnresolved("unterminated {{ here"))
        #expect(!Placeholders.containsUnresolved("a{2}b{3,4} and { braces }"))
    }
}
