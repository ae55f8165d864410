import ChatEvalCore
import Foundation
import Testing

@testable import ChatEvalReport

/// The report's text helpers were rewritten to run in time linear in their text (a 3,000-answer
/// `grade` spent half its time wrapping verdict lines). Each is held here to the plain version it
/// replaced, on the characters that can make them differ: combining marks and a variation selector
/// that join the space before them, a Prepend character that joins the space after it, wide
/// characters, carriage returns (a pure-ASCII "\r\n" is two columns to `DisplayWidth.of` and one
/// Character), line breaks, controls, bidirectional marks — and on seeded random mixes of them.
@Suite struct TextFastPathTests {
    // MARK: The versions replaced, kept as references

    static func referenceWrap(_ line: String, width: Int, hanging: String) -> String {
        guard DisplayWidth.of(line) > width else { return line }
        let indentation = String(line.prefix { $0 == " " })
        var lines: [String] = []
        var current = indentation
        for word in line.dropFirst(indentation.count).split(separator: " ") {
            let start = lines.isEmpty ? indentation : hanging
            let candidate = current == start ? current + word : current + " " + word
            if DisplayWidth.of(candidate) <= width || current == start {
                current = candidate
            } else {
                lines.append(current)
                current = hanging + word
            }
        }
        lines.append(current)
        return lines.map { Format.clip($0, width) }.joined(separator: "\n")
    }

    static func referencePrefix(_ text: String, columns: Int) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let next = used + DisplayWidth.withUTF8LocaleForTests { DisplayWidth.width(text[index]) }
            if next > columns { break }
            used = next
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    static func referenceEscaped(_ text: String, keepingNewlines: Bool, keepingReturns: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += keepingNewlines ? "\n" : "⏎"
            case "\t": result += keepingNewlines ? "\t" : " "
            case "\u{1B}": result += "\\e"
            case "\r": result += keepingReturns ? "\r" : "\\r"
            case _ where ControlCharacters.needsEscape(scalar):
                result +=
                    scalar.value < 0x100
                    ? "\\x" + ControlCharacters.hex(scalar.value, digits: 2) : "\\u{" + ControlCharacters.hex(scalar.value, digits: 4) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func referenceExcerpt(_ text: String, limit: Int) -> String {
        Format.clip(text.replacingOccurrences(of: "\n", with: "⏎").trimmingCharacters(in: .whitespaces), limit)
    }

    // MARK: Inputs

    /// Pieces that join or split differently when text is cut and joined at spaces.
    static let pieces = [
        "word", "a", "longerwordthanmost", "蓝色的", "e\u{301}", "\u{301}x", "\u{FE0F}", "☺\u{FE0F}", "\u{0600}", "\u{0600}x",
        "x\r\ny", "\r", "\r\n", "🎉", "👍🏽", "🇫🇷", "\u{200D}", "\t", "\n", "\u{1B}[31m", "\u{202E}", "\u{85}", "…", "⏎", "\u{3000}",
        "\u{00A0}", "", "  ", "\0", "a\0b",
    ]

    /// A seeded mix of `pieces` (a linear congruential generator: the same texts on every machine).
    static func randomText(seed: inout UInt64, words: Int) -> String {
        var parts: [String] = []
        for _ in 0..<words {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            parts.append(pieces[Int(seed >> 33) % pieces.count])
            if (seed >> 20) % 3 == 0 { parts.append(" ") }
        }
        return parts.joined()
    }

    static func seededTexts(count: Int) -> [String] {
        var seed: UInt64 = 20_261_129
        return (0..<count).map { index in randomText(seed: &seed, words: 1 + index % 60) }
    }

    // MARK: Tests

    @Test(arguments: [
        "     ✓ check: a\u{0600} b c d e f g h i j k l m n o p q r s t u v w x y z",
        "  x \u{301}y \u{FE0F}z ☺ \u{FE0F}\u{FE0F} 蓝色的 蓝色的 蓝色的 蓝色的 蓝色的",
        "a\r\nb c\r\nd e\r f g h i j k l m n o p q r s t u v w x y z a b c d",
        String(repeating: "averyveryverylongwordthatdoesnotfitanywhere ", count: 5),
        "    " + String(repeating: "🇫🇷 👍🏽 🎉 ", count: 12),
    ])
    func wrapEqualsTheMeasuringVersionOnJoiningCharacters(_ line: String) {
        for width in [1, 5, 12, 20, 40] {
            #expect(
                Format.wrap(line, width: width, hanging: "  ") == Self.referenceWrap(line, width: width, hanging: "  "), "width \(width)")
        }
    }

    @Test func wrapEqualsTheMeasuringVersionOnSeededText() {
        var differing = 0
        var notItsOwnClip = 0
        for (index, text) in Self.seededTexts(count: 600).enumerated() {
            let line = String(repeating: " ", count: index % 4) + text
            let width = 8 + index % 50
            let hanging = index % 2 == 0 ? "   " : "\u{301}"
            let wrapped = Format.wrap(line, width: width, hanging: hanging)
            if wrapped != Self.referenceWrap(line, width: width, hanging: hanging) { differing += 1 }
            // What lets `wrap` skip the clip of a line it knows fits (the reference clips them all,
            // and a secret registered by another test makes `wrap` clip them all too): each is its own clip.
            if line.utf8.contains(where: { $0 == UInt8(ascii: "\r") || $0 == 0 }) { continue }
            notItsOwnClip +=
                wrapped.split(separator: "\n", omittingEmptySubsequences: false).filter { Format.clip(String($0), width) != $0 }.count
        }
        #expect(differing == 0)
        #expect(notItsOwnClip == 0)
    }

    /// The case built to fail first: a width kept by adding the word's alone would miss that a
    /// variation selector after a space makes that space an emoji cell (two columns, not one).
    @Test func aVariationSelectorAfterASpaceIsMeasuredWithTheSpace() {
        let growing = DisplayWidth.Growing("ab").appending(" \u{FE0F}")
        #expect(DisplayWidth.of("ab \u{FE0F}") == 4)
        #expect(growing.width == 4)
        #expect(DisplayWidth.of("ab") + DisplayWidth.of(" ") + DisplayWidth.of("\u{FE0F}") == 3)
    }

    /// Built to fail first: NUL is one column to `DisplayWidth.of` on pure-ASCII text and none as a
    /// Character, so a line holding NUL beside non-ASCII text was wrapped differently (a review found it).
    @Test func aLineHoldingNULWrapsAsBefore() {
        for (line, width) in [("✓ a b\0c d", 6), ("é\0 é xx", 5), ("\0\0\0 a b c d e f", 4)] {
            #expect(
                Format.wrap(line, width: width, hanging: "  ") == Self.referenceWrap(line, width: width, hanging: "  "),
                "\(line.debugDescription)")
        }
    }

    @Test func aPrependCharacterJoinsTheSpaceAfterIt() {
        // U+0600 is Grapheme_Cluster_Break=Prepend: "\u{0600} " is one Character, one cell wide or none.
        #expect(DisplayWidth.Growing("a\u{0600}").appending(" b").width == DisplayWidth.of("a\u{0600} b"))
    }

    /// A wrapped line known to fit is returned as it is only while no secret is registered: with
    /// one, every line is still redacted.
    @Test func aSecretInAWrappedLineIsRedacted() {
        let secret = "sk-wrap-" + String(UInt64.random(in: 1...UInt64.max), radix: 36)
        Secrets.register(secret)
        let line = "   ✗ check: the answer quoted \(secret) and then went on for a while longer than a line"
        let wrapped = Format.wrap(line, width: 40, hanging: "     ")
        #expect(!wrapped.contains(secret))
        #expect(wrapped == Self.referenceWrap(line, width: 40, hanging: "     "))
    }

    @Test func prefixEqualsTheIndexWalkingVersion() {
        for (index, text) in Self.seededTexts(count: 400).enumerated() {
            let columns = index % 70
            #expect(DisplayWidth.prefix(text, columns: columns) == Self.referencePrefix(text, columns: columns), "\(text.debugDescription)")
        }
    }

    @Test func escapingEqualsTheScalarByScalarVersion() {
        let texts = Self.seededTexts(count: 400) + ["", "plain", "\n", "a\nb\tc\rd\u{1B}e\u{85}f\u{202E}g\u{7F}", "\r\n\r\n"]
        for text in texts {
            for (newlines, returns) in [(false, false), (true, false), (false, true), (true, true)] {
                #expect(
                    ControlCharacters.escaped(text, keepingNewlines: newlines, keepingReturns: returns)
                        == Self.referenceEscaped(text, keepingNewlines: newlines, keepingReturns: returns), "\(text.debugDescription)")
            }
        }
    }

    @Test func excerptEqualsTheFoundationVersion() {
        let texts =
            Self.seededTexts(count: 300) + [
                "", " ", "\u{3000}lead", "trail\u{00A0}", "\tboth\t", "line\nbreak", "\n", "x\r\ny", "e\u{301}\n", " \u{301}",
            ]
        for (index, text) in texts.enumerated() {
            let limit = 4 + index % 140
            #expect(Format.excerpt(text, limit: limit) == Self.referenceExcerpt(text, limit: limit), "\(text.debugDescription)")
        }
    }
}
