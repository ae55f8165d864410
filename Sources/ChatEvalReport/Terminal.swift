import ChatEvalCore

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
        ControlCharacters.escaped(text, keepingNewlines: keepingNewlines, keepingReturns: keepingReturns)
    }

    /// Text already made safe (`safe`, `safeLines`) with its pass and fail marks coloured:
    /// ✓ green, ✗ red. The only escape sequences added are these two colours and their reset,
    /// after escaping, so nothing from a model can ride along.
    public static func colorMarks(_ safeText: String) -> String {
        safeText.replacingOccurrences(of: "✓", with: "\u{1B}[32m✓\u{1B}[0m").replacingOccurrences(of: "✗", with: "\u{1B}[31m✗\u{1B}[0m")
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool { ControlCharacters.needsEscape(scalar) }

    private static func hex(_ value: UInt32, digits: Int) -> String { ControlCharacters.hex(value, digits: digits) }
}
