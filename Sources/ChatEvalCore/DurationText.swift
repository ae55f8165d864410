import Foundation

/// Durations as people write them in a project file or on the command line: `90` or `90s`
/// (seconds), `500ms`, `20m`, `1h`, and sums of them (`1h30m`).
public enum DurationText {
    /// Seconds, or nil when `text` is not a duration (or is negative, infinite or empty).
    public static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { return nil }
        if let plain = Double(trimmed) { return plain.isFinite && plain >= 0 ? plain : nil }
        var total = 0.0
        var rest = Substring(trimmed)
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            switch unit {
            case "ms": total += value / 1000
            case "s": total += value
            case "m", "min": total += value * 60
            case "h": total += value * 3600
            default: return nil
            }
        }
        return total.isFinite ? total : nil
    }

    /// "20m", "1h30m", "45s", "1.5s": the shortest way to write `seconds` back.
    public static func format(_ seconds: Double) -> String {
        if seconds < 60 { return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s" }
        let whole = Int(seconds.rounded())
        let hours = whole / 3600, minutes = (whole % 3600) / 60, rest = whole % 60
        return (hours > 0 ? "\(hours)h" : "") + (minutes > 0 ? "\(minutes)m" : "") + (rest > 0 ? "\(rest)s" : "")
    }
}
