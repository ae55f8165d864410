import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A date written in UTC in the fixed forms result files, reports and CSV cells use, by the C
/// library's calendar (`gmtime_r`, `timegm`), in whole seconds as the formatters wrote them: the
/// time rounded to the millisecond, then down to the second.
///
/// Why not `DateFormatter` or `ISO8601DateFormatter`: on Linux both run ICU, and the first use
/// loads ICU's locale, calendar and time-zone data — 4 MiB of the resident memory of a run that
/// only names its result file. A fixed UTC pattern needs no locale.
public enum UTCTimestamp {
    /// `20261129T154532Z`: a result file's name starts with it.
    public static func compact(_ date: Date) -> String {
        let t = fields(date)
        return digits(t.year, 4) + digits(t.month, 2) + digits(t.day, 2) + "T" + digits(t.hour, 2) + digits(t.minute, 2)
            + digits(t.second, 2) + "Z"
    }

    /// `2026-11-29T15:45:32`, without a zone (JUnit's `timestamp`).
    public static func dateTime(_ date: Date) -> String {
        let t = fields(date)
        return digits(t.year, 4) + "-" + digits(t.month, 2) + "-" + digits(t.day, 2) + "T" + digits(t.hour, 2) + ":"
            + digits(t.minute, 2) + ":" + digits(t.second, 2)
    }

    /// `2026-11-29T15:45:32Z`, ISO 8601 in UTC.
    public static func iso8601(_ date: Date) -> String { dateTime(date) + "Z" }

    /// `2026-11-29`.
    public static func day(_ date: Date) -> String {
        let t = fields(date)
        return digits(t.year, 4) + "-" + digits(t.month, 2) + "-" + digits(t.day, 2)
    }

    /// The date a `compact` stamp names; nil unless `text` is one (16 characters, a real day and
    /// time: `20260230T000000Z` is not).
    public static func date(compact text: Substring) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), let hour = number(9..<11),
            let minute = number(11..<13), let second = number(13..<15)
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        // `timegm` carries an out-of-range field over (February 30th is March 2nd): such a stamp names no date.
        return compact(date) == String(text) ? date : nil
    }

    /// The first and last second written as they are: a date outside years 1–9999 (a commit time
    /// of `Int64.max`, which would trap in `time_t`, or none at all) is written as the nearest of them.
    static let writable: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    private static func fields(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let rounded = ((date.timeIntervalSince1970 * 1000).rounded() / 1000).rounded(.down)
        var seconds = time_t(rounded.isNaN ? 0 : min(max(rounded, writable.lowerBound), writable.upperBound))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return (1970, 1, 1, 0, 0, 0) }
        return (
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
            Int(parts.tm_sec)
        )
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
