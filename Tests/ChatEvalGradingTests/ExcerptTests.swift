import ChatEvalCore
import Testing

@testable import ChatEvalGrading

/// `Excerpt.clip` takes a slice of the text as it is when nothing in the shown part needs
/// rewriting; it must write exactly what the code-point path writes, at every length around the
/// cut and with every line break `isLineBreak` names, wherever it falls.
@Suite struct ExcerptTests {
    static let pieces = [
        "a", "é", "日", "🎉", "e\u{301}", " ", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\u{2027}", "\u{A8}",
    ]

    @Test func theSliceWritesWhatTheCodePointPathWrites() {
        var generator = SystemRandomNumberGenerator()
        var texts = [""] + Self.pieces
        for length in [1, 2, 39, 40, 41, 78, 79, 80, 81, 82, 160] {
            texts.append(String(repeating: "x", count: length))
            for _ in 0..<40 {
                texts.append((0..<length).map { _ in Self.pieces.randomElement(using: &generator)! }.joined())
                // Mostly plain text, one line break somewhere: before, at or after the cut.
                var scalars = Array(String(repeating: "b", count: length).unicodeScalars)
                scalars[Int.random(in: 0..<length, using: &generator)] = "\n"
                texts.append(String(String.UnicodeScalarView(scalars)))
            }
        }
        for text in texts {
            for limit in [1, 2, 40, 80] {
                #expect(Excerpt.clip(text, to: limit) == Excerpt.clipConverting(text, to: limit), "\(text.debugDescription) to \(limit)")
            }
        }
    }

    @Test func aLineBreakInTheShownPartIsDrawnAndOneCutOffIsNot() {
        #expect(Excerpt.clip("one\ntwo", to: 80) == "one⏎two")
        #expect(Excerpt.clip(String(repeating: "a", count: 79) + "\u{2028}rest", to: 80) == String(repeating: "a", count: 79) + "…")
        #expect(Excerpt.clip(String(repeating: "a", count: 78) + "\u{2028}rest", to: 80) == String(repeating: "a", count: 78) + "⏎…")
        #expect(Excerpt.clip("ab\u{85}", to: 80) == "ab⏎")
        // U+2027 and U+00A8 share bytes with U+2028 and U+0085 but are not line breaks.
        #expect(Excerpt.clip("\u{2027}\u{A8}", to: 80) == "\u{2027}\u{A8}")
    }
}
