/// Control characters shown rather than obeyed: the escaping behind `Terminal` (ChatEvalReport),
/// here so that what prints below the report — the engine's crash message, written by a signal
/// handler from suite ids and the engine record's fields — escapes the same characters the same way.
public enum ControlCharacters {
    /// `text` with every C0 and C1 control, DEL and bidirectional formatting character escaped
    /// (`\e`, `\r`, `\x07`, `\u{202E}`). Line feeds become ⏎ and tabs a space, unless
    /// `keepingNewlines` (then both are kept); carriage returns are kept only with `keepingReturns`.
    public static func escaped(_ text: String, keepingNewlines: Bool = false, keepingReturns: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += keepingNewlines ? "\n" : "⏎"
            case "\t": result += keepingNewlines ? "\t" : " "
            case "\u{1B}": result += "\\e"
            case "\r": result += keepingReturns ? "\r" : "\\r"
            case _ where needsEscape(scalar):
                result += scalar.value < 0x100 ? "\\x" + hex(scalar.value, digits: 2) : "\\u{" + hex(scalar.value, digits: 4) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
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
