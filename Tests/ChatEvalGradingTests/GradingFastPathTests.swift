import ChatEvalCore
import Foundation
import Testing

@testable import ChatEvalGrading
@testable import ChatEvalPunktModel

/// The grading bench's faster paths against what they replaced, on seeded random inputs built to
/// reach their edges: each must give exactly the old answer.
@Suite("Grading fast paths")
struct GradingFastPathTests {
    /// `count` texts of up to `length` code points drawn from `alphabet`.
    static func texts(_ alphabet: [Unicode.Scalar], count: Int, length: Int, seed: UInt64) -> [String] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...length, using: &random) { scalars.append(alphabet.randomElement(using: &random)!) }
            return String(scalars)
        }
    }

    /// Every width of UTF-8 (1 to 4 bytes), line breaks of each kind, and case pairs.
    static let mixed: [Unicode.Scalar] = [
        "a", "B", " ", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", ".", "*", "-", "é", "É", "İ", "Σ", "ß", "ſ",
        "日", "本", "€", "🎉", "\u{10FFFF}", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}",
    ]

    @Test func scalarsDecodeAsTheScalarViewDoes() {
        for text in Self.texts(Self.mixed, count: 3_000, length: 40, seed: 1) {
            #expect(text.scalars == Array(text.unicodeScalars), "\(text.debugDescription)")
        }
        let native = String(repeating: "x€🎉", count: 300)  // past the small-string form
        #expect(native.scalars == Array(native.unicodeScalars))
        let fromFoundation = NSString(string: native).appending("é") as String
        #expect(fromFoundation.scalars == Array(fromFoundation.unicodeScalars))
    }

    @Test func simpleLowercasingInBulkMapsEachCodePointAsOneDoes() {
        for text in Self.texts(Self.mixed + ["A", "Z", "@", "[", "`", "{", "Ω", "Ǆ"], count: 2_000, length: 30, seed: 2) {
            let scalars = text.scalars
            #expect(scalars.simpleLowercased == scalars.map(PythonText.simpleLower), "\(text.debugDescription)")
        }
    }

    /// The answer's quoted head, from its code points, against the text's own clipping, around
    /// the 80-code-point width and with line breaks of every kind in the shown part.
    @Test func theQuotedHeadFromCodePointsIsTheTextsOwn() {
        for text in Self.texts(Self.mixed, count: 3_000, length: 120, seed: 3) + ["", "x", String(repeating: "y", count: 80)] {
            #expect(Excerpt.head(text.scalars[...]) == Excerpt.head(text), "\(text.debugDescription)")
        }
    }

    /// IFEval's own searches (`re.findall` of the reference's patterns) against the scanners
    /// that count highlights and bullets, on texts made of the characters they read.
    @Test func theHighlightAndBulletScannersCountAsTheReferencePatternsDo() throws {
        let single = try PythonRegex(#"\*[^\n\*]*\*"#), double = try PythonRegex(#"\*\*[^\n\*]*\*\*"#)
        let starBullet = try PythonRegex(#"^\s*\*[^\*].*$"#, flags: .multiline),
            dashBullet = try PythonRegex(#"^\s*-.*$"#, flags: .multiline)
        let alphabet: [Unicode.Scalar] = ["*", "*", "*", "\n", "\n", " ", "\t", "a", "-", "\u{A0}"]
        for text in Self.texts(alphabet, count: 4_000, length: 24, seed: 4) {
            let scalars = text.scalars
            func highlights(_ pattern: PythonRegex, stars: Int) throws -> Int {
                try pattern.matches(scalars).filter {
                    !PythonText.isBlank(scalars[($0.range.lowerBound + stars)..<($0.range.upperBound - stars)])
                }.count
            }
            #expect(NumberOfHighlights.count(scalars, stars: 1) == (try highlights(single, stars: 1)), "\(text.debugDescription)")
            #expect(NumberOfHighlights.count(scalars, stars: 2) == (try highlights(double, stars: 2)), "\(text.debugDescription)")
            #expect(
                NumberOfBullets.count(scalars, marker: "*", needsNonStar: true) == (try starBullet.matches(scalars).count),
                "\(text.debugDescription)")
            #expect(
                NumberOfBullets.count(scalars, marker: "-", needsNonStar: false) == (try dashBullet.matches(scalars).count),
                "\(text.debugDescription)")
        }
    }

    /// With a secret registered, the head is quoted from the text as before: cut at 80 code points
    /// of a text whose secret straddles the cut, the two ways widen differently (a review found
    /// a missing `…`). The secret is this test's own, unlike any other text in the tests.
    @Test func withASecretRegisteredTheQuotedHeadIsTheTextsOwn() {
        let secret = "fastpath-secret-9Zq7Wx3-0000000000000000000"
        Secrets.register(secret)
        for text in [String(repeating: "x", count: 60) + secret, String(repeating: "y", count: 79) + secret + "tail", secret] {
            #expect(GradingSubject(answer: text).analysis.quotedHead == Excerpt.head(text), "\(text)")
            #expect(!GradingSubject(answer: text).analysis.quotedHead.contains(secret))
        }
    }

    /// A check is built once per process and may be built before a key is registered (the
    /// served runtime registers it when it connects): what its details quote of its own needle
    /// or pattern is redacted as at evaluation time, not as when it was built.
    @Test func aSecretRegisteredAfterACheckIsBuiltIsRedactedInItsDetails() throws {
        let secret = "fastpath-later-key-4Rt8Lm2-1111111111111111"
        let needle = CheckArgument.string("key: " + secret)
        let contains = try makeCheck("contains", ["value": needle])
        let regex = try makeCheck("regex", ["value": needle])
        let containsAny = try makeCheck("contains-any", ["value": .list([needle, "other"])])
        Secrets.register(secret)
        let subject = GradingSubject(answer: "an answer without it")
        for check in [contains, regex, containsAny] {
            let detail = check.evaluate(subject).detail
            #expect(!detail.contains(secret), "\(check.type): \(detail)")
            #expect(detail.contains(Secrets.placeholder), "\(check.type): \(detail)")
        }
    }

    /// `contains-any` quotes around the needle it found, by that needle's own length: `é` written
    /// as `e` + U+0301 is two code points, though it equals the one-code-point `é` as a String
    /// (before 2026-11-30 the excerpt took the first equal needle's length, one short).
    @Test func aFoundNeedleIsQuotedByItsOwnLength() throws {
        let answer = "e\u{301}" + String(repeating: "x", count: 100)
        #expect(
            try verdict("contains-any", ["value": ["\u{E9}", "e\u{301}"]], on: answer).detail
                == "found \"e\u{301}\": \"e\u{301}" + String(repeating: "x", count: 39) + "…\"")
    }

    /// The details `contains` writes from what it built once: each form pinned as written before.
    @Test func containsDetailsAreWrittenAsBefore() throws {
        let cases: [(type: String, needles: [CheckArgument], detail: String)] = [
            ("contains-all", ["fox", "cat"], #"expected "cat" in the answer; not found. Answer: "fox and dog""#),
            ("contains-all", ["cow", "cat"], #"expected "cow", "cat" in the answer; not found. Answer: "fox and dog""#),
            ("icontains-all", ["COW", "fox"], #"expected "COW" in the answer; not found (ignoring case). Answer: "fox and dog""#),
            ("contains-any", ["cat", "cow"], #"expected one of "cat", "cow" in the answer; none found. Answer: "fox and dog""#),
            ("contains-all", ["fox", "dog"], #"found "fox" (and 1 more): "fox and dog""#),
            ("contains-any", ["cat", "dog", "fox"], #"found "dog": "fox and dog""#),
        ]
        for (type, needles, detail) in cases {
            #expect(try verdict(type, ["value": .list(needles)], on: "fox and dog").detail == detail, "\(type) \(needles)")
        }
    }

    /// The one table of the model's types answers as the four Swift collections it replaced did,
    /// for every type the model lists and for random tokens: the lowercase is taken as the
    /// tokenizer took it (`PythonText.lowerString`), non-ASCII letters included.
    @Test func thePunktTypeTableAnswersAsTheModelsSetsDid() {
        let abbreviations = Set(PunktEnglishModel.abbreviations), starters = Set(PunktEnglishModel.sentenceStarters)
        let collocationStarts = Set(PunktEnglishModel.collocations.map(\.word))
        let context = Dictionary(PunktEnglishModel.orthographicContext.map { ($0.type, $0.flags) }, uniquingKeysWith: { first, _ in first })
        let table = PunktParameters.english.types
        func expected(_ token: String) -> PunktTypeTable.Entry? {
            let type = PythonText.lowerString(token.scalars)
            let entry = PunktTypeTable.Entry(
                isAbbreviation: abbreviations.contains(type), isSentenceStarter: starters.contains(type),
                startsCollocation: collocationStarts.contains(type), orthographicContext: context[type] ?? 0)
            return entry == PunktTypeTable.Entry() && context[type] == nil ? nil : entry
        }
        var tokens = Array(context.keys) + PunktEnglishModel.abbreviations + PunktEnglishModel.sentenceStarters
        tokens += tokens.prefix(2_000).flatMap { [$0.uppercased(), $0.capitalized, $0 + "s"] }
        tokens += Self.texts(["a", "B", "é", "É", "İ", "Σ", "σ", "ſ", "K", "日", "-", "."], count: 3_000, length: 6, seed: 5)
        tokens += ["İstanbul", "ΣΑΣ", "Mr", "MR", "mR", "e.g", "##number##", ""]
        var checked = 0
        for token in tokens {
            #expect(table.entry(lowercasing: token.scalars) == expected(token), "\(token.debugDescription)")
            checked += 1
        }
        #expect(checked > 20_000)
        #expect(table.numberEntry == expected("##number##"))
    }

    /// The sets compared types as Strings do, by canonical equivalence; the table keys a type by
    /// its ASCII spelling where it has one. A model with types spelled both ways, and tokens
    /// spelled both ways, get the sets' answers.
    @Test func thePunktTypeTableComparesSpellingsAsStringsDo() {
        let abbreviations = ["\u{E9}", "i\u{1FEF}ve", "caf\u{E9}", "e\u{301}t\u{E9}", "plain"]
        let starters = ["\u{212A}elvin", "kelvin", "x;y"]
        let context: [(type: String, flags: Int)] = [("i`ve", 4), ("x\u{037E}y", 2), ("x;y", 8), ("e\u{301}", 16)]
        let table = PunktTypeTable(
            abbreviations: abbreviations, sentenceStarters: starters, collocationStarts: ["caf\u{E9}"], orthographicContext: context)
        let contexts = Dictionary(context.map { ($0.type, $0.flags) }, uniquingKeysWith: { first, _ in first })
        #expect(table.orthographicContextCount == contexts.count)
        let tokens = [
            "\u{E9}", "e\u{301}", "\u{C9}", "E\u{301}", "i`ve", "I\u{1FEF}VE", "i\u{1FEF}ve", "caf\u{E9}", "cafe\u{301}", "CAFE\u{301}",
            "kelvin", "\u{212A}elvin", "KELVIN", "x;y", "X\u{037E}Y", "\u{E9}t\u{E9}", "e\u{301}te\u{301}", "plain", "PLAIN", "other",
        ]
        for token in tokens {
            let type = PythonText.lowerString(token.scalars)
            let entry = table.entry(lowercasing: token.scalars)
            #expect((entry?.isAbbreviation ?? false) == Set(abbreviations).contains(type), "\(token.debugDescription)")
            #expect((entry?.isSentenceStarter ?? false) == Set(starters).contains(type), "\(token.debugDescription)")
            #expect((entry?.startsCollocation ?? false) == Set(["caf\u{E9}"]).contains(type), "\(token.debugDescription)")
            #expect((entry?.orthographicContext ?? 0) == (contexts[type] ?? 0), "\(token.debugDescription)")
        }
    }

    /// The code points a String outside ASCII may hold and still equal an ASCII String are those
    /// whose canonical decomposition is all ASCII: every assigned code point is checked against
    /// the table's list, and Swift's own comparison agrees on the list.
    @Test func exactlyThreeCodePointsOutsideASCIIAreCanonicallyASCII() {
        var found: [UInt32] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            guard category != .unassigned && category != .privateUse && category != .surrogate else { continue }
            let decomposed = String(scalar).decomposedStringWithCanonicalMapping
            if decomposed.unicodeScalars.allSatisfy(\.isASCII) { found.append(value) }
            #expect(
                PunktTypeTable.isASCIIEquivalent(scalar) == decomposed.unicodeScalars.allSatisfy(\.isASCII), "U+\(String(value, radix: 16))"
            )
        }
        #expect(found == [0x037E, 0x1FEF, 0x212A])
        for value in found {
            let scalar = Unicode.Scalar(value)!
            #expect(String(scalar) == String(PunktTypeTable.asASCII(scalar)))
        }
    }
}
