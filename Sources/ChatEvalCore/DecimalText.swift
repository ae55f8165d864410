/// Numbers written as text the same way everywhere outside the reports' display rounding
/// (ChatEvalReport's `Format`): in CSV cells, gate and check details, lint messages. Locale-free,
/// never an exponent, a whole number without a fraction.
public enum DecimalText {
    /// The shortest digits that read back as the same `Double` (Swift's own), never an exponent
    /// (`0.000012`, not `1.2e-05`; `12000000000000000000000`, not `1.2e+22`), a whole number
    /// without a fraction (`2`, and `0` for −0.0); a non-finite value as Swift writes it
    /// (`nan`, `inf`, `-inf`).
    public static func plain(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        if value == 0 { return "0" }
        let text = "\(value)"
        // Bytes, not Characters: this runs for every number of every check's detail.
        let bytes = text.utf8
        guard let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            let exponent = Int(Substring(text.utf8[bytes.index(after: e)...]))
        else {
            let count = bytes.count
            guard count > 2, bytes.last == UInt8(ascii: "0"), bytes[bytes.index(bytes.endIndex, offsetBy: -2)] == UInt8(ascii: ".") else {
                return text
            }
            return String(Substring(text.utf8.dropLast(2)))
        }
        var mantissa = Substring(text[..<e])
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let digits = String(whole + (parts.count > 1 ? parts[1] : ""))
        let point = whole.count + exponent  // where the decimal point falls among `digits`
        var plain: String
        if point <= 0 {
            plain = "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            plain = digits + String(repeating: "0", count: point - digits.count)
        } else {
            plain = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
        }
        if plain.contains(".") {
            while plain.hasSuffix("0") { plain.removeLast() }
            if plain.hasSuffix(".") { plain.removeLast() }
        }
        return sign + plain
    }

    /// `value` rounded half away from zero to `places` decimals (at most 15), then written `plain`:
    /// `rounded(0.125, places: 2)` is `0.13`, `rounded(2.0, places: 3)` is `2`. A value too large
    /// to hold that many decimals is written as it is.
    public static func rounded(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return String(value) }
        var scale = 1.0
        for _ in 0..<min(max(places, 0), 15) { scale *= 10 }
        let scaled = value * scale
        return plain(scaled.isFinite && abs(scaled) < 9e15 ? scaled.rounded() / scale : value)
    }
}
