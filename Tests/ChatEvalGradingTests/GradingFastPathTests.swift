import ChatEvalCore
import Testing

@testable import ChatEvalGrading
@testable import ChatEvalPunktModel

/// The grading bench's faster paths against what they replaced, on seeded random inputs built to
/// reach their edges: each must give exactly the old answer.
@Suite("Grading fast paths")
struct GradingFastPathTests {
    /// A seeded generator (SplitMix64), so a failure names an input that can be rebuilt.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// `count` texts of up to `length` code points drawn from `alphabet`.
    static func texts(_ alphabet: [Unicode.Scalar], count: Int, length: Int, seed: UInt64) -> [String] {
        var random = Seeded(state: seed)
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
        let bridged = String(repeating: "x€🎉", count: 300)  // a native string past the small form
        #expect(bridged.scalars == Array(bridged.unicodeScalars))
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

    /// The details `contains` writes from what it built once: each form pinned as written before.
    @Test func containsDetailsAreWrittenAsBefore() throws {
        let answer = "fox and dog"
        #expect(
            try verdict("contains-all", ["value": ["fox", "cat"]], on: answer).detail
                == #"expected "cat" in the answer; not found. Answer: "fox and dog""#)
        #expect(
            try verdict("contains-all", ["value": ["cow", "cat"]], on: answer).detail
                == #"expected "cow", "cat" in the answer; not found. Answer: "fox and dog""#)
        #expect(
            try verdict("icontains-all", ["value": ["COW", "fox"]], on: answer).detail
                == #"expected "COW" in the answer; not found (ignoring case). Answer: "fox and dog""#)
        #expect(
            try verdict("contains-any", ["value": ["cat", "cow"]], on: answer).detail
                == #"expected one of "cat", "cow" in the answer; none found. Answer: "fox and dog""#)
        #expect(try verdict("contains-all", ["value": ["fox", "dog"]], on: answer).detail == #"found "fox" (and 1 more): "fox and dog""#)
        #expect(try verdict("contains-any", ["value": ["cat", "dog", "fox"]], on: answer).detail == #"found "dog": "fox and dog""#)
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
}
