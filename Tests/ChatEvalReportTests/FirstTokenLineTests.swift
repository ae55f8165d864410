import ChatEvalCore
import ChatEvalReport
import Testing

/// Where a turn's time to the first token went, in words: every part in process; for a served
/// turn, the server's prefill and the rest, named as what the server does not break down.
@Suite struct FirstTokenLineTests {
    static func served(ttft: Double, serverPrefill: Double?, reusable: Int? = nil, reused: Int? = 40) -> TurnMetrics {
        TurnMetrics(
            promptTokens: 100, reusedTokens: reused, generatedTokens: 8, timeToFirstToken: ttft, prefillTime: serverPrefill,
            decodeTime: 0.1, totalTime: ttft + 0.1, interTokenLatencies: [], stopReason: .maxTokens,
            server: ServerFigures(
                promptEvaluatedTokens: 60, cachedTokens: reused, prefillTime: serverPrefill, usageReported: true, contentDeltas: 8),
            reusableTokens: reusable)
    }

    @Test func aServedTurnSplitsAtTheServersPrefill() throws {
        let turn = Self.served(ttft: 0.056, serverPrefill: 0.040)
        let split = try #require(turn.servedFirstTokenSplit)
        #expect(abs(split.serverPrefill - 0.040) < 1e-12 && abs(split.notBrokenDown - 0.016) < 1e-12)
        let line = try #require(FirstTokenLine.render(turn))
        #expect(line.hasPrefix("TTFT 56 ms = server prefill 40 ms + 16 ms the server does not break down"), "\(line)")
    }

    @Test func reEvaluatedTokensAreTheServersToo() throws {
        // 60 evaluated in 40 ms; 20 of the 60 were reusable and missed: ≈ 13 ms.
        let turn = Self.served(ttft: 0.056, serverPrefill: 0.040, reusable: 60, reused: 40)
        let line = try #require(FirstTokenLine.render(turn))
        #expect(line.contains("server prefill 40 ms (13 ms re-evaluating tokens the cache lost)"), "\(line)")
    }

    @Test func aPrefillLongerThanTheTTFTIsCappedAtIt() throws {
        // The server's clock and ours differ: its prefill is never shown as more than the TTFT.
        let split = try #require(Self.served(ttft: 0.030, serverPrefill: 0.031).servedFirstTokenSplit)
        #expect(split.serverPrefill == 0.030 && split.notBrokenDown == 0)
    }

    @Test func withoutTimingsNothingIsClaimed() {
        let turn = Self.served(ttft: 0.056, serverPrefill: nil)
        #expect(turn.servedFirstTokenSplit == nil && FirstTokenLine.render(turn) == nil)
    }

    @Test func inProcessEveryPartIsShown() throws {
        let parts = FirstTokenParts(template: 0.0003, tokenize: 0.0002, prefill: 0.058, reevaluated: 0.012, firstSample: 0.0031, other: 0)
        var turn = Self.served(ttft: parts.total, serverPrefill: nil)
        turn.server = nil
        turn.firstTokenParts = parts
        let line = try #require(FirstTokenLine.render(turn))
        #expect(line.contains("template") && line.contains("(12 ms re-evaluating tokens the cache lost)") && !line.contains("server"))
        #expect(turn.servedFirstTokenSplit == nil)
    }
}
