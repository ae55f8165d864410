#if canImport(Glibc)
    import Glibc
#endif

/// How many terminal columns text takes: CJK and other wide characters take two, combining marks
/// none. Asks the C library's `wcwidth` (Unicode's East Asian Width tables as glibc ships them)
/// under a UTF-8 locale of its own, set per thread with `uselocale`, so the process's locale is
/// left alone. Characters `wcwidth` calls unprintable count one (reports escape controls first).
public enum DisplayWidth {
    /// C.UTF-8 is built into glibc (2.35 and later): no locale package needed.
    nonisolated(unsafe) private static let utf8Locale: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

    public static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return withUTF8Locale { text.reduce(0) { $0 + width($1) } }
    }

    public static func of(_ character: Character) -> Int {
        if character.isASCII { return 1 }
        return withUTF8Locale { width(character) }
    }

    /// The width of a text that grows at its end, kept without measuring the text again: the
    /// width of its Characters but the last, and the last one, which appended text may extend (a
    /// combining mark, a variation selector). Equal to `of` for a text `of` sums by Characters:
    /// any text but a pure-ASCII one holding "\r\n" (two columns there, one Character) or NUL
    /// (one column there, none as a Character).
    public struct Growing: Sendable {
        private var settled: Int
        private var last: String

        public init(_ text: String) {
            last = text.last.map(String.init) ?? ""
            settled = DisplayWidth.characterSum(text) - DisplayWidth.characterSum(last)
        }

        public var width: Int { settled + DisplayWidth.characterSum(last) }

        /// The width of the text with `suffix` appended.
        public func appending(_ suffix: String) -> Growing {
            var grown = self
            let joint = last + suffix
            grown.last = joint.last.map(String.init) ?? ""
            grown.settled = settled + DisplayWidth.characterSum(joint) - DisplayWidth.characterSum(grown.last)
            return grown
        }
    }

    /// The width of `text` as the sum of its Characters' widths.
    private static func characterSum(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") && $0 != 0 }) { return text.utf8.count }
        return withUTF8Locale { text.reduce(0) { $0 + width($1) } }
    }

    /// `text` cut to at most `columns` columns, whole characters only.
    public static func prefix(_ text: String, columns: Int) -> String {
        withUTF8Locale {
            // Each Character found once: walking `indices` and subscripting found each one three times.
            var used = 0
            var end = 0  // UTF-8 offset
            for character in text {
                let next = used + width(character)
                if next > columns { break }
                used = next
                end += character.utf8.count
            }
            return String(Substring(text.utf8.prefix(end)))
        }
    }

    /// The columns of one Character: its first scalar's cell, widened to two by an emoji
    /// variation selector (internal for the tests' reference versions).
    static func width(_ character: Character) -> Int {
        var total = 0
        for (position, scalar) in character.unicodeScalars.enumerated() {
            // ASCII but NUL is one column here without asking: printable ones are one cell and
            // `wcwidth` calls the controls unprintable (-1), which count one.
            let columns = (0x01...0x7F).contains(scalar.value) ? 1 : Int(c_wcwidth(wchar_t(bitPattern: scalar.value)))
            // The first scalar sets the cell; later ones (combining marks, joiners) add none,
            // except a variation selector asking for emoji presentation.
            if position == 0 { total = columns < 0 ? 1 : columns } else if scalar.value == 0xFE0F { total = 2 }
        }
        return total
    }

    /// `body` under the UTF-8 locale `width` needs (for the tests' reference versions).
    static func withUTF8LocaleForTests<T>(_ body: () -> T) -> T { withUTF8Locale(body) }

    private static func withUTF8Locale<T>(_ body: () -> T) -> T {
        guard let utf8Locale else { return body() }
        let previous = uselocale(utf8Locale)
        defer { uselocale(previous) }
        return body()
    }
}

/// glibc's `wcwidth(3)`: Swift's Glibc module leaves it out (the header declares it only for
/// `_XOPEN_SOURCE`), so it is declared here with its C signature, `int wcwidth(wchar_t)`.
@_silgen_name("wcwidth")
private func c_wcwidth(_ character: wchar_t) -> Int32
