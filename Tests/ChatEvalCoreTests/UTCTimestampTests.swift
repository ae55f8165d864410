import ChatEvalCore
import Foundation
import Testing

/// `UTCTimestamp` replaced `DateFormatter` and `ISO8601DateFormatter` (which load ICU's data on
/// Linux) in result file names, JUnit, history CSV and the calibration date: each form is held
/// here to the formatter it replaced, on seeded dates from 1970 to 2100, fractional seconds
/// (the formatters round to the millisecond, then down: 132.999999 s is written 133), leap days
/// and the ends of years.
@Suite struct UTCTimestampTests {
    static func formatter(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter
    }

    static let dates: [Date] = {
        var seed: UInt64 = 42
        var dates = [
            0, 951_782_400, 951_868_799.999, 1_709_164_800.5, 1_798_761_599.75, 4_102_444_799, 1_764_430_132.999_999,
            // Before 1970, and half-millisecond ties there and after.
            -1, -0.5, -0.000_5, -1.000_5, -86_400.25, -1_000_000_000, -2_208_988_800, 1.000_5, 1_764_430_132.000_5,
        ].map {
            Date(timeIntervalSince1970: $0)
        }
        for _ in 0..<500 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            dates.append(Date(timeIntervalSince1970: Double(seed >> 31) / Double(1 << 33) * 4_102_444_800))
        }
        return dates
    }()

    @Test func everyFormEqualsTheFormatterItReplaced() {
        let compact = Self.formatter("yyyyMMdd'T'HHmmss'Z'")
        let local = Self.formatter("yyyy-MM-dd'T'HH:mm:ss")
        let iso = ISO8601DateFormatter()
        var differing: [String] = []
        for date in Self.dates {
            let day = ISO8601DateFormatter.string(from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
            if UTCTimestamp.compact(date) != compact.string(from: date) { differing.append("compact \(date.timeIntervalSince1970)") }
            if UTCTimestamp.dateTime(date) != local.string(from: date) { differing.append("local \(date.timeIntervalSince1970)") }
            if UTCTimestamp.iso8601(date) != iso.string(from: date) { differing.append("iso \(date.timeIntervalSince1970)") }
            if UTCTimestamp.day(date) != day { differing.append("day \(date.timeIntervalSince1970)") }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }

    /// A commit time can be anything git holds (`Int64.max` seconds): no date traps; one outside
    /// years 1–9999, or none (NaN), is written as the nearest second that is.
    @Test func anExtremeDateIsWrittenWithoutATrap() {
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: Double(Int64.max))) == "9999-12-31T23:59:59Z")
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: -Double(Int64.max))) == "0001-01-01T00:00:00Z")
        #expect(UTCTimestamp.compact(Date(timeIntervalSince1970: .infinity)) == "99991231T235959Z")
        #expect(UTCTimestamp.day(Date(timeIntervalSince1970: .nan)) == "1970-01-01")
    }

    @Test func aCompactStampReadsBackAsTheFormatterReadsIt() {
        let compact = Self.formatter("yyyyMMdd'T'HHmmss'Z'")
        for date in Self.dates {
            let stamp = UTCTimestamp.compact(date)
            #expect(UTCTimestamp.date(compact: Substring(stamp)) == compact.date(from: stamp))
        }
        // Not a stamp: a day that does not exist, a wrong length or letter, a sign. (The formatter
        // read some of these as dates — "20261129T154532" without its Z, "" as 2000-01-01 — and a
        // run folder's file so named was then skipped as "not within a day"; it is now read.)
        for text in [
            "20260230T000000Z", "20261329T000000Z", "20261129T240000Z", "20261129T154532", "20261129X154532Z", "2026112+T154532Z", "",
        ] {
            #expect(UTCTimestamp.date(compact: Substring(text)) == nil, "\(text)")
        }
    }
}
