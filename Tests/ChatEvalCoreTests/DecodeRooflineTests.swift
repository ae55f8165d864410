import ChatEvalCore
import Testing

/// The decode roofline's arithmetic, at its edges: depth 0, a negative depth, no bandwidth, a
/// rate above the bound, and SmolLM2-135M's geometry worked by hand.
@Suite struct DecodeRooflineTests {
    // SmolLM2-135M: 30 layers, 3 KV heads of 64 (keys and values), f16: 30 × 3 × 128 × 2 bytes.
    let smol = DecodeRoofline(weightBytes: 92_100_000, kvBytesPerPosition: 23_040)

    @Test func bytesPerTokenAreTheWeightsAndTheCacheAtThatDepth() {
        #expect(smol.bytesPerToken(depth: 0) == 92_100_000)
        #expect(smol.bytesPerToken(depth: 1_000) == 92_100_000 + 23_040_000)
        #expect(smol.bytesPerToken(depth: -5) == 92_100_000)
        #expect(DecodeRoofline.meanDepth(promptTokens: 505, generatedTokens: 128) == 569)
        #expect(DecodeRoofline.meanDepth(promptTokens: 10, generatedTokens: 1) == 10)
    }

    @Test func theShareIsTheRateOverTheBound() throws {
        // 11.5 GB/s over 115.14 MB per token at depth 1,000: a bound of about 99.9 tokens/s.
        let bound = try #require(smol.boundTokensPerSecond(depth: 1_000, bandwidth: 11.5e9))
        #expect(abs(bound - 11.5e9 / 115_140_000) < 1e-9)
        let share = try #require(smol.share(decodeTokensPerSecond: bound / 2, depth: 1_000, bandwidth: 11.5e9))
        #expect(abs(share - 0.5) < 1e-12)
        // Above the bound is reported as it is (a bandwidth figure too low), never clamped.
        #expect((smol.share(decodeTokensPerSecond: bound * 1.2, depth: 1_000, bandwidth: 11.5e9) ?? 0) > 1.19)
    }

    @Test func unknownFiguresGiveNoShare() {
        #expect(smol.boundTokensPerSecond(depth: 10, bandwidth: 0) == nil)
        #expect(smol.boundTokensPerSecond(depth: 10, bandwidth: .nan) == nil)
        #expect(smol.share(decodeTokensPerSecond: nil, depth: 10, bandwidth: 1e10) == nil)
        #expect(smol.share(decodeTokensPerSecond: .infinity, depth: 10, bandwidth: 1e10) == nil)
        #expect(DecodeRoofline(weightBytes: 0, kvBytesPerPosition: 0).boundTokensPerSecond(depth: 0, bandwidth: 1e10) == nil)
    }
}
