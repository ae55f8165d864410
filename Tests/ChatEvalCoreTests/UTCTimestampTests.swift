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

    /// Result files and the bandwidth cache write and read dates through `jsonEncoding` and
    /// `jsonDecoding` instead of `.iso8601` (which loads ICU's time-zone data): the JSON written is
    /// byte for byte `.iso8601`'s, from year 1 to 9999 and past it, fractional seconds and ties
    /// included; and every text reads as `.iso8601` reads it, or fails with its message (and the
    /// field's path, which `.iso8601` leaves out).
    @Test func theJSONDateStrategiesWriteAndReadAsISO8601Does() throws {
        var dates = Self.dates
        var seed: UInt64 = 7
        for _ in 0..<2_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Years 1 to 9999, to the microsecond.
            let second = -62_135_596_800 + Double(seed >> 11) / Double(1 << 53) * 315_537_897_600
            dates.append(Date(timeIntervalSince1970: (second * 1e6).rounded() / 1e6))
        }
        for edge in [31_536_000.0, 253_370_764_800, 31_535_999.999_5, 253_370_764_799.999_5, -62_135_596_800, 253_402_300_799] {
            dates += [-1, -0.000_5, 0, 0.000_5, 0.999_5, 1].map { Date(timeIntervalSince1970: edge + $0) }
        }
        // A Date holds its time since 2001: the last representable instants before a second, and
        // the same counted from 1970, where adding the 978,307,200 s between can reach the second.
        var reach: UInt64 = 11
        for _ in 0..<500 {
            reach = reach &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let second = Double(reach >> 31) / Double(1 << 33) * 3_000_000_000 - 500_000_000
            dates.append(Date(timeIntervalSinceReferenceDate: second.rounded().nextDown))
            dates.append(Date(timeIntervalSince1970: second.rounded().nextDown))
            dates.append(Date(timeIntervalSinceReferenceDate: second.rounded() - 1e-7))
        }
        let reference = JSONEncoder(), fast = JSONEncoder()
        reference.dateEncodingStrategy = .iso8601
        fast.dateEncodingStrategy = UTCTimestamp.jsonEncoding
        let written = try reference.encode(dates)
        #expect(try fast.encode(dates) == written)
        var differing: [String] = []
        for date in dates where try fast.encode([date]) != reference.encode([date]) {
            differing.append("\(date.timeIntervalSince1970): \(String(decoding: try reference.encode([date]), as: UTF8.self))")
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")

        let texts =
            try (JSONSerialization.jsonObject(with: written) as? [String] ?? []) + [
                "2026-11-30T17:35:32+01:00", "2026-11-30T17:35:32-0130", "2026-11-30T17:35:32.123Z", "2026-11-30T17:35:32.5Z",
                "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "2026-11-30T24:00:00Z", "2026-11-30T23:59:60Z",
                "2026-11-30 17:35:32Z", "2026-11-30t17:35:32z", "2026-11-30T17:35:32", "20261130T173532Z", "+2026-11-30T17:35:32Z",
                "0000-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "1971-01-01T00:00:00Z", "9998-12-31T23:59:59Z", "9999-01-01T00:00:00Z",
                "2026-1-30T17:35:32Z", "2026-11-30T17:35:3Z", "２026-11-30T17:35:32Z", "", "garbage",
            ]
        let referenceDecoder = JSONDecoder(), fastDecoder = JSONDecoder()
        referenceDecoder.dateDecodingStrategy = .iso8601
        fastDecoder.dateDecodingStrategy = UTCTimestamp.jsonDecoding
        for text in texts {
            let json = try JSONSerialization.data(withJSONObject: ["at": text])
            let expected: Result<[String: Date], any Error> = Result { try referenceDecoder.decode([String: Date].self, from: json) }
            let actual: Result<[String: Date], any Error> = Result { try fastDecoder.decode([String: Date].self, from: json) }
            switch (expected, actual) {
            case (.success(let expected), .success(let actual)): #expect(expected == actual, "\(text)")
            case (.failure(let expected as DecodingError), .failure(let actual as DecodingError)):
                guard case .dataCorrupted(let expected) = expected, case .dataCorrupted(let actual) = actual else {
                    Issue.record("\(text): .iso8601 failed with \(expected), the fast strategy with \(actual)")
                    continue
                }
                #expect(actual.debugDescription == expected.debugDescription, "\(text)")
                #expect(actual.codingPath.map(\.stringValue) == ["at"], "\(text)")
            default: Issue.record("\(text): .iso8601 gave \(expected), the fast strategy \(actual)")
            }
        }
    }
}
