/// Text from a model, a user or a file made safe to print: control characters and escape
/// sequences are shown, not obeyed. A model answer holding ESC [2J must not clear the screen,
/// an OSC 8 sequence must not plant a link, a carriage return must not overwrite a verdict, and
/// bidirectional overrides must not reorder what a reader sees.
public enum Terminal {
    /// One line: line breaks shown as ⏎, every other control character escaped (`\e`, `\r`, `\x07`, `\u{202E}`).
    public static func safe(_ text: String) -> String {
        escape(text, keepingNewlines: false)
    }

    /// Several lines: line feeds kept, every other control character escaped.
    public static func safeLines(_ text: String) -> String {
        escape(text, keepingNewlines: true)
    }

    /// JSON text made safe to print while staying the same JSON: characters a terminal obeys
    /// (C1 controls, bidirectional formatting) become `\uXXXX` escapes, which only occur inside
    /// strings (JSON encoders already escape C0 controls there).
    public static func safeJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) && scalar.value >= 0x20 {
                result += "\\u" + hex(scalar.value, digits: 4)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// CSV text made safe to print while staying the same rows: line feeds, carriage returns
    /// (records end in CR LF, answers may hold both) and tabs kept, every other control character
    /// escaped as `safeLines` escapes it. The escapes hold no comma, quote or line break, so no
    /// field needs quoting that did not before.
    public static func safeCSV(_ csv: String) -> String {
        escape(csv, keepingNewlines: true, keepingReturns: true)
    }

    private static func escape(_ text: String, keepingNewlines: Bool, keepingReturns: Bool = false) -> String {
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

    /// Text already made safe (`safe`, `safeLines`) with its pass and fail marks coloured:
    /// ✓ green, ✗ red. The only escape sequences added are these two colours and their reset,
    /// after escaping, so nothing from a model can ride along.
    public static func colorMarks(_ safeText: String) -> String {
        safeText.replacingOccurrences(of: "✓", with: "\u{1B}[32m✓\u{1B}[0m").replacingOccurrences(of: "✗", with: "\u{1B}[31m✗\u{1B}[0m")
    }

    /// C0 and C1 controls, DEL, and the bidirectional formatting characters.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
