import ChatEvalCore
import Foundation

/// Number formats shared by every human-readable output.
public enum Format {
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

    /// The first `limit` characters of `text` on one line, with an ellipsis when cut.
    public static func excerpt(_ text: String, limit: Int = 72) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: "⏎").trimmingCharacters(in: .whitespaces)
        return flat.count > limit ? String(flat.prefix(limit - 1)) + "…" : flat
    }
}
