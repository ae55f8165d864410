import ChatEvalCore
import Testing

/// The byte search against a plain reference (every offset compared byte by byte), on texts of a
/// small alphabet so that matches, overlaps and near misses are common, including multi-byte
/// characters whose bytes occur inside others.
@Suite struct LiteralSearchTests {
    static let alphabet = ["a", "b", "é", "ö", "日", "本", "🎉", "{", "{{"]

    static func referenceOffsets(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard !needle.isEmpty, needle.count <= haystack.count else { return [] }
        var found: [Int] = []
        var at = 0
        while at + needle.count <= haystack.count {
            if Array(haystack[at..<(at + needle.count)]) == needle {
                found.append(at)
                at += needle.count
            } else {
                at += 1
            }
        }
        return found
    }

    @Test func agreesWithTheReferenceOnRandomTexts() {
        var generator = SystemRandomNumberGenerator()
        func text(_ count: Int) -> String { (0..<count).map { _ in Self.alphabet.randomElement(using: &generator)! }.joined() }
        for _ in 0..<2_000 {
            let haystack = text(Int.random(in: 0...30, using: &generator))
            let needle = text(Int.random(in: 1...3, using: &generator))
            let offsets = Self.referenceOffsets(of: Array(needle.utf8), in: Array(haystack.utf8))
            #expect(LiteralSearch.contains(haystack, needle) == !offsets.isEmpty, "\(needle) in \(haystack)")
            #expect(LiteralSearch.firstOffset(of: needle, in: haystack, from: 0) == offsets.first)
            var expected = Array(haystack.utf8)
            for offset in offsets.reversed() { expected.replaceSubrange(offset..<(offset + needle.utf8.count), with: Array("_".utf8)) }
            #expect(LiteralSearch.replacingOccurrences(in: haystack, of: needle, with: "_") == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test func edges() {
        #expect(LiteralSearch.contains("", ""))
        #expect(LiteralSearch.contains("abc", ""))
        #expect(!LiteralSearch.contains("", "a"))
        #expect(!LiteralSearch.contains("ab", "abc"))
        #expect(LiteralSearch.firstOffset(of: "b", in: "abab", from: 2) == 3)
        #expect(LiteralSearch.firstOffset(of: "b", in: "abab", from: 5) == nil)
        #expect(LiteralSearch.replacingOccurrences(in: "aaaa", of: "aa", with: "b") == "bb")
        #expect(LiteralSearch.replacingOccurrences(in: "xyz", of: "", with: "b") == "xyz")
        // Canonically equivalent but spelled differently: not the same bytes, so not found.
        #expect(!LiteralSearch.contains("caf\u{E9}", "cafe\u{301}"))
        // A match never starts inside a multi-byte character: "é" is C3 A9, "©" is C2 A9.
        #expect(!LiteralSearch.contains("é", "\u{A9}"))
    }
}
