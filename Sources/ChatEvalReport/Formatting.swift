import ChatEvalCore
import Foundation

/// Number formats shared by every human-readable output.
public enum Format {
    /// "1 turn", "3 turns": a count with its noun, plural by adding "s".
    public static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// A run's progress: "12/64 turns", or "12/≤64 turns" when `total` is a most (a paired run
    /// adding rounds until decided). Replays measured again after a busy spell can take a paired
    /// run past its most: the count then stands alone beside the plan, "66 turns (≤64 planned)",
    /// rather than a bound it has broken (growing the bound would claim a new most nobody planned).
    public static func turnsDone(_ finished: Int, of total: Int, atMost: Bool) -> String {
        finished > total ? "\(finished) turns (\(atMost ? "≤" : "")\(total) planned)" : "\(finished)/\(atMost ? "≤" : "")\(total) turns"
    }

    /// The time left at the pace so far, `elapsed` seconds for `finished` of `total` turns:
    /// "ETA 1:05", "ETA ≤ 1:05" when `total` is a most; "ETA –" before the first turn and past
    /// the plan, where nothing bounds what is left.
    public static func eta(_ finished: Int, of total: Int, atMost: Bool, elapsed: Double) -> String {
        guard finished > 0, finished <= total else { return "ETA –" }
        let remaining = Int((elapsed / Double(finished) * Double(total - finished)).rounded())
        return "ETA \(atMost ? "≤ " : "")" + String(format: "%d:%02d", remaining / 60, remaining % 60)
    }

    /// Seconds as milliseconds: "412 ms", "3.1 ms", "1.85 s".
    public static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "–" }
        if seconds >= 10 { return String(format: "%.1f s", seconds) }
        if seconds >= 1 { return String(format: "%.2f s", seconds) }
        let milliseconds = seconds * 1000
        return milliseconds >= 10 ? String(format: "%.0f ms", milliseconds) : String(format: "%.1f ms", milliseconds)
    }

    public static func rate(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        return value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }

    public static func bytes(_ value: Int?) -> String {
        guard let value else { return "–" }
        let mebibytes = Double(value) / 1_048_576
        return mebibytes >= 1024 ? String(format: "%.2f GiB", mebibytes / 1024) : String(format: "%.0f MiB", mebibytes)
    }

    public static func percent(_ ratio: Double?) -> String {
        guard let ratio, ratio.isFinite else { return "–" }
        return String(format: "%.0f%%", ratio * 100)
    }

    /// A metric's value in its unit.
    public static func value(_ value: Double?, of metric: Metric) -> String {
        switch metric.unit {
        case .seconds: duration(value)
        case .tokensPerSecond: rate(value)
        case .ratio: percent(value)
        case .bytes: bytes(value.flatMap { Int(exactly: $0.rounded()) })
        case .tokens: value.map { String(format: "%.0f", $0) } ?? "–"
        }
    }

    /// Two durations in one cell, their shared unit written once: "20/24 ms", "0.91/1.20 s";
    /// "12 ms/1.20 s" when the units differ.
    public static func durationPair(_ first: Double?, _ second: Double?) -> String {
        let (a, b) = (duration(first), duration(second))
        for unit in [" ms", " µs", " s"] where a.hasSuffix(unit) && b.hasSuffix(unit) {
            return "\(a.dropLast(unit.count))/\(b)"
        }
        return "\(a)/\(b)"
    }

    /// `line` broken at spaces into lines of at most `width` columns, the later ones starting
    /// with `hanging` (a word longer than a line is cut); the line's own indentation is kept.
    /// For messages that must be read whole.
    public static func wrap(_ line: String, width: Int, hanging: String) -> String {
        guard DisplayWidth.of(line) > width else { return line }
        let indentation = String(line.prefix { $0 == " " })
        // Each candidate's width is its line's so far plus what the word adds (`DisplayWidth.Growing`):
        // measuring the whole candidate again for every word made a long line quadratic (a 3,000-answer
        // `grade` spent half its time here). A carriage return or a NUL takes the measuring path: on a
        // pure-ASCII line `DisplayWidth.of` counts "\r\n" as two columns and NUL as one, where a sum of
        // Characters counts one and none.
        let measuresAgain = line.utf8.contains { $0 == UInt8(ascii: "\r") || $0 == 0 }
        var lines: [(text: String, width: Int)] = []
        var current = indentation
        var currentWidth = DisplayWidth.Growing(indentation)
        var atLineStart = true  // `current` holds no word yet: only the first word can find it so
        for word in line.dropFirst(indentation.count).split(separator: " ") {
            let added = atLineStart ? String(word) : " " + word
            let candidateWidth = currentWidth.appending(added)
            let fits = (measuresAgain ? DisplayWidth.of(current + added) : candidateWidth.width) <= width
            if fits || atLineStart {
                current += added
                currentWidth = candidateWidth
            } else {
                lines.append((current, currentWidth.width))
                current = hanging + word
                currentWidth = DisplayWidth.Growing(current)
            }
            atLineStart = false
        }
        lines.append((current, currentWidth.width))
        // A line known to fit is its own clip when there is no secret to redact in it.
        let clipsItself = !measuresAgain && Secrets.longestSecret == 0
        return lines.map { clipsItself && $0.width <= width ? $0.text : clip($0.text, width) }.joined(separator: "\n")
    }

    /// `text` cut to `limit` terminal columns (an ellipsis marks the cut), for table cells;
    /// registered secrets redacted before the cut (`Secrets`).
    public static func clip(_ text: String, _ limit: Int) -> String {
        let text = Secrets.redact(text)
        let fitting = DisplayWidth.prefix(text, columns: limit)
        return fitting.utf8.count == text.utf8.count ? text : DisplayWidth.prefix(fitting, columns: limit - 1) + "…"
    }

    /// `text` in at most `limit` columns, cut in the middle: a model's name keeps its end, where
    /// the quantisation is ("SmolLM2-13…Q4_1.gguf" beside "SmolLM2-13…Q8_0.gguf"); registered
    /// secrets redacted before the cut.
    public static func clipMiddle(_ text: String, _ limit: Int) -> String {
        let text = Secrets.redact(text)
        guard DisplayWidth.prefix(text, columns: limit).utf8.count != text.utf8.count, limit >= 5 else { return clip(text, limit) }
        let characters = Array(text)
        var head = "", tail = ""
        var front = 0, back = characters.count
        // Take from the front and the back, two columns of tail to one of head, while both fit
        // (one column for "…").
        while front < back {
            let takeTail = DisplayWidth.of(tail) < 2 * DisplayWidth.of(head)
            let candidate = takeTail ? String(characters[back - 1]) + tail : head + String(characters[front])
            guard DisplayWidth.of(takeTail ? head + candidate : candidate + tail) <= limit - 1 else { break }
            if takeTail {
                tail = candidate
                back -= 1
            } else {
                head = candidate
                front += 1
            }
        }
        return head + "…" + tail
    }

    /// `text` after `label` ("HPT       ", "memory    "), wrapped to `width` columns with its later
    /// lines under the text's start: the label's own spacing kept (`wrap` would fold it).
    public static func labelled(_ label: String, _ text: String, width: Int) -> String {
        let pad = String(repeating: " ", count: DisplayWidth.of(label))
        return label + wrap(pad + text, width: width, hanging: pad).dropFirst(pad.count)
    }

    /// A name (a suite, a model, a conversation) in lines of at most `width` columns, never cut:
    /// broken after a separator (`-`, `_`, `/`, `.`, `·`, a space) where one falls in a line's
    /// last two thirds, else at the width. Registered secrets redacted first (`Secrets`).
    public static func wrapName(_ name: String, width: Int) -> String {
        let name = Secrets.redact(name)
        guard width >= 4, DisplayWidth.of(name) > width else { return name }
        var lines: [String] = []
        var rest = Substring(name)
        while DisplayWidth.of(String(rest)) > width {
            let fitting = DisplayWidth.prefix(String(rest), columns: width)
            var cut = fitting.endIndex
            if let separator = fitting.lastIndex(where: { "-_/.· ".contains($0) }),
                DisplayWidth.of(String(fitting[...separator])) >= width / 3
            {
                cut = fitting.index(after: separator)
            }
            let line = String(fitting[..<cut])
            guard !line.isEmpty else { break }
            lines.append(line.trimmingCharacters(in: .whitespaces))
            rest = rest.dropFirst(line.count)
            while rest.first == " " { rest = rest.dropFirst() }
        }
        if !rest.isEmpty { lines.append(String(rest)) }
        return lines.joined(separator: "\n")
    }

    /// The first `limit` columns of `text` on one line, with an ellipsis when cut.
    public static func excerpt(_ text: String, limit: Int = 72) -> String {
        // Foundation's replacing and trimming convert the text through NSString; a report prints
        // one excerpt per check, and most hold no line break and no white space at either end.
        let oneLine = text.utf8.contains(UInt8(ascii: "\n")) ? text.replacingOccurrences(of: "\n", with: "⏎") : text
        let scalars = oneLine.unicodeScalars
        guard let first = scalars.first, let last = scalars.last,
            CharacterSet.whitespaces.contains(first) || CharacterSet.whitespaces.contains(last)
        else { return clip(oneLine, limit) }
        return clip(oneLine.trimmingCharacters(in: .whitespaces), limit)
    }
}
