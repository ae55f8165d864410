import ChatEvalCore
import ChatEvalStore
import Foundation

/// RFC 4180 CSV: fields joined by commas, records ended by CRLF; a field holding a comma, a
/// double quote, CR or LF is put in double quotes, with its quotes doubled; every other field is
/// written as it is. The text is UTF-8 when written out; nothing is escaped or dropped, so a field
/// reads back exactly as it was given.
///
/// Written by hand: quoting is a dozen lines, and a package for them (the mirror holds none for
/// CSV) would cost a fourth dependency and its build time.
public enum CSV {
    /// One field, quoted when it must be.
    public static func field(_ text: String) -> String {
        // Scalars, not Characters: CR LF is one Character, and would match neither "\r" nor "\n".
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A text cell no spreadsheet runs as a formula: one that starts with `=`, `+`, `-`, `@`, a
    /// tab or a carriage return gets a leading `'` (OWASP's advice on CSV injection); any other
    /// text is as given. Numbers go through `decimal` and `integer` instead, and stay numbers.
    public static func text(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }

    /// One record: the fields, quoted where they must be, and the CRLF that ends it.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// A number in plain decimal, whatever the locale: the shortest digits that read back as the
    /// same `Double` (Swift's own), never an exponent (`0.000012`, not `1.2e-05`), a whole number
    /// without a fraction (`2`); "" for a value that is missing or not finite.
    public static func decimal(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        return DecimalText.plain(value)
    }

    /// An integer in plain decimal; "" when missing.
    public static func integer(_ value: Int?) -> String {
        value.map(String.init) ?? ""
    }
}
