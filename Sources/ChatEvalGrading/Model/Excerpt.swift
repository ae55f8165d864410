import ChatEvalCore

/// Short quotations of an answer for verdict details: at most ~80 code points, elisions marked
/// with `…`, line breaks shown as `⏎` so a detail stays on one line. Only the quoted part of a
/// text is ever converted, so quoting a megabyte answer costs the same as quoting a short one.
enum Excerpt {
    static let width = 80

    /// `text` cut to `limit` code points, with `…` at the end when cut.
    static func clip(_ text: String, to limit: Int = width) -> String {
        // Only what is shown is converted, and as far past it as a secret cut at its end reaches.
        let reach = Secrets.longestSecret
        if reach == 0, limit > 0, let clipped = clipWithoutLineBreaks(text, to: limit) { return clipped }
        return clipConverting(text, to: limit, reach: reach)
    }

    /// `clip` by way of code points: every case, and the reference `clipWithoutLineBreaks` must equal.
    static func clipConverting(_ text: String, to limit: Int, reach: Int = Secrets.longestSecret) -> String {
        let scalars = Array(text.unicodeScalars.prefix(limit + 1 + 2 * reach))[...]
        guard scalars.count > limit else { return Secrets.redact(render(scalars)) }
        let shown = Secrets.widenedToWholeSecrets(0..<max(limit - 1, 0), of: scalars)
        return Secrets.redact(render(scalars[shown])) + "…"
    }

    /// `clip` when no secret is registered and the shown part holds no line break: a slice of
    /// the text as it is, without converting it to code points and back (needles, patterns and
    /// other short texts; an answer's head is quoted from its code points, `AnswerAnalysis`).
    /// Nil when a line break is shown.
    private static func clipWithoutLineBreaks(_ text: String, to limit: Int) -> String? {
        let scalars = text.unicodeScalars
        guard let last = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex) else {
            return holdsLineBreak(text.utf8[...]) ? nil : text
        }
        if last == scalars.endIndex { return holdsLineBreak(text.utf8[...]) ? nil : text }
        let cut = scalars.index(before: last)
        let shown = text.utf8[..<cut]
        return holdsLineBreak(shown) ? nil : String(Substring(shown)) + "…"
    }

    /// True when UTF-8 `bytes` hold a line break `isLineBreak` names: a byte below 0x0E among
    /// \n \r VT FF, U+0085 (C2 85), U+2028 or U+2029 (E2 80 A8/A9).
    private static func holdsLineBreak(_ bytes: Substring.UTF8View) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for byte in bytes {
            switch byte {
            case 0x0A...0x0D: return true
            case 0x85 where previous == 0xC2: return true
            case 0xA8, 0xA9: if previous == 0x80 && beforePrevious == 0xE2 { return true }
            default: break
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    static func isLineBreak(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": return true
        default: return false
        }
    }

    /// Around the code-point range `range` of `scalars`: context on each side, `…` where cut; quoted.
    static func around(_ scalars: Scalars, _ range: Range<Int>, width: Int = width) -> String {
        let lower = max(0, min(range.lowerBound, scalars.count))
        let upper = max(lower, min(range.upperBound, scalars.count))
        let span = upper - lower
        let start: Int, end: Int
        if span >= width {
            start = lower
            end = lower + width - 1
        } else {
            let context = (width - span) / 2
            start = max(0, lower - context)
            end = min(scalars.count, upper + context)
        }
        return quote(scalars[...], start..<end)
    }

    /// The start of a text, quoted: `"The answer is…"`, or `(empty answer)`.
    static func head(_ text: String, width: Int = width) -> String {
        text.isEmpty ? "(empty answer)" : "\"" + clip(text, to: width) + "\""
    }

    /// The start of a code-point text, quoted.
    static func head(_ scalars: ArraySlice<Unicode.Scalar>, width: Int = width) -> String {
        if scalars.isEmpty { return "(empty answer)" }
        return quote(scalars, 0..<(scalars.count > width ? width - 1 : scalars.count))
    }

    /// The end of a text, quoted.
    static func tail(_ text: String, width: Int = width) -> String {
        let scalars = text.unicodeScalars
        let wanted = width + 1 + 2 * Secrets.longestSecret
        var shown: [Unicode.Scalar] = []
        var index = scalars.endIndex
        while index != scalars.startIndex && shown.count < wanted {
            index = scalars.index(before: index)
            shown.append(scalars[index])
        }
        return tail(Array(shown.reversed())[...], width: width)
    }

    /// The end of a code-point text, quoted.
    static func tail(_ scalars: ArraySlice<Unicode.Scalar>, width: Int = width) -> String {
        if scalars.isEmpty { return "(empty answer)" }
        return quote(scalars, (scalars.count > width ? scalars.count - width + 1 : 0)..<scalars.count)
    }

    /// The code points `range` (offsets from the start) of `scalars`, quoted, `…` where cut.
    /// Redacted before it is cut: a registered secret the cut straddles is widened into the
    /// excerpt whole and shows as the placeholder, never in part (`Secrets`).
    static func quote(_ scalars: ArraySlice<Unicode.Scalar>, _ range: Range<Int>) -> String {
        let shown = Secrets.widenedToWholeSecrets(range, of: scalars)
        let base = scalars.startIndex
        let open = shown.lowerBound > 0 ? "\"…" : "\"", close = shown.upperBound < scalars.count ? "…\"" : "\""
        let part = scalars[(base + shown.lowerBound)..<(base + shown.upperBound)]
        // One allocation where nothing is to be redacted (nearly every verdict quotes the answer).
        guard Secrets.isEmpty else { return open + Secrets.redact(render(part)) + close }
        return render(part, between: open, and: close)
    }

    /// Code points as text, line breaks as ⏎, between `open` and `close`.
    static func render(_ scalars: ArraySlice<Unicode.Scalar>, between open: String = "", and close: String = "") -> String {
        scalars.withUnsafeBufferPointer { scalars in
            var length = open.utf8.count + close.utf8.count
            for scalar in scalars { length += isLineBreak(scalar) ? 3 : UTF8.width(scalar) }
            return String(unsafeUninitializedCapacity: length) { buffer in
                var k = 0
                for byte in open.utf8 {
                    buffer[k] = byte
                    k += 1
                }
                for scalar in scalars {
                    if scalar.value < 0x80 && scalar.value > 0x0D {
                        buffer[k] = UInt8(truncatingIfNeeded: scalar.value)
                        k += 1
                    } else {
                        UTF8.encode(isLineBreak(scalar) ? "⏎" : scalar) { byte in
                            buffer[k] = byte
                            k += 1
                        }
                    }
                }
                for byte in close.utf8 {
                    buffer[k] = byte
                    k += 1
                }
                return k
            }
        }
    }
}
