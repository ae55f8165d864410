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

    /// The date an ISO 8601 stamp in UTC names (`2026-11-29T15:45:32Z`, exactly that form, a real
    /// day and time); nil for any other text.
    public static func date(iso8601 text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        // The same digits without the separators: a compact stamp.
        var compact: [UInt8] = []
        compact.reserveCapacity(16)
        for range in [0..<4, 5..<7, 8..<10, 10..<11, 11..<13, 14..<16, 17..<20] { compact.append(contentsOf: bytes[range]) }
        return date(compact: Substring(String(decoding: compact, as: UTF8.self)))
    }

    /// Dates as `JSONEncoder`'s `.iso8601` writes them (`2026-11-29T15:45:32Z`), written by the C
    /// library's calendar for years 1971–9998 and by Foundation's `ISO8601FormatStyle` outside
    /// them. `.iso8601` itself makes a time zone, and on Linux the first one loads ICU's
    /// time-zone data: 1.8 MiB more resident in every run that writes its record.
    public static let jsonEncoding: JSONEncoder.DateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        // `.iso8601` drops the fraction (132.9999 s is written 132), where the formatters above
        // rounded it, and it drops it from the time since 2001, which the Date holds: a time just
        // under a second, counted from 1970, can be that whole second.
        let seconds = date.timeIntervalSinceReferenceDate.rounded(.down) + Date.timeIntervalBetween1970AndReferenceDate
        guard fastRange.contains(seconds) else { return try container.encode(date.formatted(Date.ISO8601FormatStyle())) }
        // A whole second: `iso8601`'s rounding to the millisecond leaves it as it is.
        try container.encode(iso8601(Date(timeIntervalSince1970: seconds)))
    }

    /// Dates as `JSONDecoder`'s `.iso8601` reads them: the one form `jsonEncoding` writes is read
    /// by the C library's calendar, any other text by Foundation's `ISO8601FormatStyle` (as
    /// `.iso8601` does). A text that is no date fails with `.iso8601`'s message and, which
    /// `.iso8601` leaves out, the path of the field that held it.
    public static let jsonDecoding: JSONDecoder.DateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let date = date(iso8601: text), fastRange.contains(date.timeIntervalSince1970) { return date }
        guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected date string to be ISO8601-formatted.")
        }
        return date
    }

    /// 1971-01-01 to 9998-12-31, where `iso8601` and `date(iso8601:)` are held to Foundation's
    /// ISO 8601 style (`UTCTimestampTests`).
    static let fastRange: Range<Double> = 31_536_000..<253_370_764_800

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
