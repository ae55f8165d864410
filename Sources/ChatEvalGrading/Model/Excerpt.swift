/// Short quotations of an answer for verdict details: at most ~80 code points, elisions marked
/// with `…`, line breaks shown as `⏎` so a detail stays on one line. Only the quoted part of a
/// text is ever converted, so quoting a megabyte answer costs the same as quoting a short one.
enum Excerpt {
    static let width = 80

    /// `text` cut to `limit` code points, with `…` at the end when cut.
    static func clip(_ text: String, to limit: Int = width) -> String {
        let view = text.unicodeScalars
        var end = view.startIndex
        var count = 0
        var lineBreak = false
        while end != view.endIndex && count < limit {
            if isLineBreak(view[end]) { lineBreak = true }
            view.formIndex(after: &end)
            count += 1
        }
        let cut = end != view.endIndex
        var kept = view[..<end]
        if cut { kept = kept.dropLast() }
        let shown = lineBreak ? render(Array(kept)[...]) : String(Substring(kept))
        return cut ? shown + "…" : shown
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
        return "\"" + (start > 0 ? "…" : "") + render(scalars[start..<end]) + (end < scalars.count ? "…" : "") + "\""
    }

    /// The start of a text, quoted: `"The answer is…"`, or `(empty answer)`.
    static func head(_ text: String, width: Int = width) -> String {
        text.isEmpty ? "(empty answer)" : "\"" + clip(text, to: width) + "\""
    }

    /// The start of a code-point text, quoted.
    static func head(_ scalars: ArraySlice<Unicode.Scalar>, width: Int = width) -> String {
        if scalars.isEmpty { return "(empty answer)" }
        guard scalars.count > width else { return "\"" + render(scalars) + "\"" }
        return "\"" + render(scalars.prefix(width - 1)) + "…\""
    }

    /// The end of a text, quoted.
    static func tail(_ text: String, width: Int = width) -> String {
        let scalars = text.unicodeScalars
        var shown: [Unicode.Scalar] = []
        var index = scalars.endIndex
        while index != scalars.startIndex && shown.count <= width {
            index = scalars.index(before: index)
            shown.append(scalars[index])
        }
        return tail(Array(shown.reversed())[...], width: width)
    }

    /// The end of a code-point text, quoted.
    static func tail(_ scalars: ArraySlice<Unicode.Scalar>, width: Int = width) -> String {
        if scalars.isEmpty { return "(empty answer)" }
        guard scalars.count > width else { return "\"" + render(scalars) + "\"" }
        return "\"…" + render(scalars.suffix(width - 1)) + "\""
    }

    /// Code points as text, line breaks as ⏎.
    static func render(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        String(scalars: scalars.lazy.map { isLineBreak($0) ? "⏎" : $0 })
    }
}
