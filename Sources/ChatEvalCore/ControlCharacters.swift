/// Control characters shown rather than obeyed: the escaping behind `Terminal` (ChatEvalReport),
/// here so that what prints below the report — the engine's crash message, written by a signal
/// handler from suite ids and the engine record's fields — escapes the same characters the same way.
public enum ControlCharacters {
    /// `text` with every C0 and C1 control, DEL and bidirectional formatting character escaped
    /// (`\e`, `\r`, `\x07`, `\u{202E}`). Line feeds become ⏎ and tabs a space, unless
    /// `keepingNewlines` (then both are kept); carriage returns are kept only with `keepingReturns`.
    public static func escaped(_ text: String, keepingNewlines: Bool = false, keepingReturns: Bool = false) -> String {
        let scalars = text.unicodeScalars
        func kept(_ scalar: Unicode.Scalar) -> Bool {
            !needsEscape(scalar) || (keepingNewlines && (scalar == "\n" || scalar == "\t")) || (keepingReturns && scalar == "\r")
        }
        guard let first = scalars.firstIndex(where: { !kept($0) }) else { return text }
        // Runs of kept text are copied whole: a report of thousands of lines escaped scalar by
        // scalar cost a twentieth of a large `grade`.
        var result = String(Substring(scalars[..<first]))
        result.reserveCapacity(text.utf8.count + 16)
        var runStart = first
        var index = first
        while index != scalars.endIndex {
            let scalar = scalars[index]
            if !kept(scalar) {
                result += Substring(scalars[runStart..<index])
                switch scalar {
                case "\n": result += "⏎"
                case "\t": result += " "
                case "\u{1B}": result += "\\e"
                case "\r": result += "\\r"
                default:
                    result += scalar.value < 0x100 ? "\\x" + hex(scalar.value, digits: 2) : "\\u{" + hex(scalar.value, digits: 4) + "}"
                }
                runStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        result += Substring(scalars[runStart...])
        return result
    }

    /// C0 and C1 controls, DEL, and the bidirectional formatting characters.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `value` in upper-case hexadecimal, at least `digits` long.
    public static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
