import ChatEvalCore

/// Numbers in check details, written exactly enough to see why a check failed ("0.97", "412.3 ms",
/// "1.5 GiB"): recorded in result files, so unlike the reports' rounding (ChatEvalReport's
/// `Format`) they keep two decimals.
enum DetailNumbers {
    static func score(_ value: Double) -> String { decimal(value, places: 2) }

    static func decimal(_ value: Double, places: Int) -> String { DecimalText.rounded(value, places: places) }

    static func seconds(_ value: Double) -> String {
        value < 1 ? "\(decimal(value * 1000, places: 1)) ms" : "\(decimal(value, places: 3)) s"
    }

    static func bytes(_ value: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var v = value, unit = 0
        while v >= 1024 && unit < units.count - 1 {
            v /= 1024
            unit += 1
        }
        return "\(decimal(v, places: unit == 0 ? 0 : 2)) \(units[unit])"
    }
}
