import ChatEvalCore
import Testing

/// The one way numbers are written outside the reports' display rounding, at its edges: the
/// exponents Swift would print, negative zero, halves, the largest and smallest magnitudes.
/// (Four helpers wrote these four ways before: `1e-07` in a lint message, `1e+16` in a gate's.)
@Suite struct DecimalTextTests {
    @Test(arguments: [
        (2.0, "2"), (-0.0, "0"), (0.1 + 0.2, "0.30000000000000004"), (0.000012, "0.000012"), (1e-7, "0.0000001"),
        (1.2e22, "12000000000000000000000"), (-1.5e-5, "-0.000015"), (123456.789, "123456.789"),
        (Double.nan, "nan"), (Double.infinity, "inf"), (-Double.infinity, "-inf"),
    ])
    func plainNeverWritesAnExponent(_ value: Double, _ text: String) {
        #expect(DecimalText.plain(value) == text)
    }

    @Test func roundedRoundsHalvesAwayFromZeroAndDropsAFractionOfZero() {
        #expect(DecimalText.rounded(0.125, places: 2) == "0.13")
        #expect(DecimalText.rounded(-0.125, places: 2) == "-0.13")
        #expect(DecimalText.rounded(2.0004, places: 3) == "2")
        #expect(DecimalText.rounded(69.2349, places: 1) == "69.2")
        #expect(DecimalText.rounded(0.00004, places: 3) == "0")
        #expect(DecimalText.rounded(1e16, places: 3) == "10000000000000000")
        #expect(DecimalText.rounded(12.5, places: 0) == "13")
        #expect(DecimalText.rounded(.nan, places: 2) == "nan")
    }
}
