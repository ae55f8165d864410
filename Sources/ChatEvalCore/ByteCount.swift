import Foundation

/// Byte counts as people read them: "512 bytes", "1.5 KiB", "8.7 GiB".
public enum ByteCount {
    public static func format(_ bytes: Int) -> String {
        if bytes == Int.max { return "more than 9 EiB" }
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = Double(bytes), unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
    }
}
