import ChatEvalCore

/// Escaping for the markup formats. Written here rather than taken from a library: each is a
/// handful of replacements (XMLCoder or an HTML builder would add a package to every build for
/// what these 70 lines do), and each is tested with hostile text (`<script>`, `</svg>`, control
/// characters, `|` in Markdown cells).
///
/// Each function redacts registered secrets from its input before it escapes or cuts it: an
/// escaped secret (`hf\_…`) or a cut one no longer matches, and would be written nearly whole.
public enum Markup {
    /// Text for HTML element content or a quoted attribute value: `& < > " '` as entities, and
    /// control characters (other than tab and line feed) shown as `\xNN` — never obeyed.
    public static func html(_ text: String) -> String {
        escaped(text, lineBreaksAsReferences: false)
    }

    /// XML 1.0 text or attribute value: as `html` (XML 1.0 cannot carry most control characters
    /// at all, even as references), line breaks kept as `&#10;` in attributes.
    public static func xml(_ text: String, attribute: Bool = false) -> String {
        escaped(text, lineBreaksAsReferences: attribute)
    }

    /// `& < > " '` as references HTML and XML both read, the rest through `appendVisible`.
    private static func escaped(_ text: String, lineBreaksAsReferences: Bool) -> String {
        replacing(Secrets.redact(text)) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            case "\n" where lineBreaksAsReferences: "&#10;"
            default: nil
            }
        }
    }

    /// One Markdown table cell (or inline text): on one line, with every character Markdown or
    /// the HTML GitHub allows would act on escaped.
    public static func markdown(_ text: String) -> String {
        replacing(Secrets.redact(text)) { scalar in
            switch scalar {
            case "\n": " ⏎ "
            case "\r": ""
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "|", "\\", "`", "*", "_", "[", "]", "#", "~", "!", "$": "\\" + String(scalar)
            default: nil
            }
        }
    }

    /// `text` with each scalar `replacement` maps replaced, and the rest through `appendVisible`.
    private static func replacing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else {
                appendVisible(scalar, to: &result)
            }
        }
        return result
    }

    /// `text` cut to `limit` characters with an ellipsis when longer.
    public static func cut(_ text: String, _ limit: Int) -> String {
        let text = Secrets.redact(text)
        return text.count > limit ? String(text.prefix(max(limit - 1, 0))) + "…" : text
    }

    /// Appends `scalar`, or `\xNN` / `\u{NNNN}` for control characters, bidirectional overrides
    /// (which would reorder what a reader sees) and the noncharacters U+FFFE and U+FFFF (which
    /// XML 1.0 cannot carry).
    private static func appendVisible(_ scalar: Unicode.Scalar, to result: inout String) {
        switch scalar.value {
        case 0x09, 0x0A: result.unicodeScalars.append(scalar)
        case 0x00...0x1F, 0x7F...0x9F:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFFFE, 0xFFFF:
            result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: result.unicodeScalars.append(scalar)
        }
    }
}
