import Testing

@testable import ChatEvalCore

/// A graded run keeps every verdict it made (200,000 for 10,000 answers of 20 checks): the
/// fields are ordered so that padding is only at the end (`Verdict`'s stored properties).
@Suite struct VerdictLayoutTests {
    @Test func aVerdictsFieldsLeaveNoPaddingBetweenThem() {
        // Five strings (16 bytes each), the weight (8), the score (9), three one-byte flags.
        #expect(MemoryLayout<Verdict>.size == 5 * 16 + 8 + 9 + 3)
        #expect(MemoryLayout<Verdict>.stride == 104)
    }
}
