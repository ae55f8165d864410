import ChatEvalCore
import Foundation
import Testing

@Suite struct WorkLedgerTests {
    private func metrics() -> TurnMetrics {
        var metrics = TurnMetrics(
            promptTokens: 120, reusedTokens: 100, generatedTokens: 9, timeToFirstToken: 0.2, prefillTime: 0.1, decodeTime: 0.4,
            totalTime: 0.6, interTokenLatencies: Array(repeating: 0.05, count: 8), stopReason: .endOfGeneration, reusableTokens: 104)
        metrics.decodeCalls = 9
        metrics.prefillBatches = 1
        metrics.kvCellsInUse = 128
        metrics.answerDigest = AnswerDigest.of(tokens: [1, 2, 3])
        return metrics
    }

    private func snakeCaseCoders() -> (JSONEncoder, JSONDecoder) {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return (encoder, decoder)
    }

    @Test func theLedgerGathersEveryCountOfTheTurn() {
        let ledger = metrics().ledger
        #expect(ledger.promptTokens == 120 && ledger.reusableTokens == 104 && ledger.reusedTokens == 100)
        #expect(ledger.evaluatedTokens == 20 && ledger.generatedTokens == 9)
        #expect(ledger.decodeCalls == 9 && ledger.prefillBatches == 1 && ledger.kvCellsInUse == 128)
        #expect(ledger.stopReason == .endOfGeneration && ledger.answerDigest == AnswerDigest.of(tokens: [1, 2, 3]))
        #expect(
            ledger.counts.map(\.name) == [
                "prompt", "reusable", "reused", "evaluated", "generated", "decode calls", "prefill batches", "KV cells",
            ])
    }

    @Test func theNewEntriesSurviveAResultFileAndOldFilesReadWithoutThem() throws {
        let (encoder, decoder) = snakeCaseCoders()
        let data = try encoder.encode(metrics())
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"answer_digest\":\"tokens:"))
        #expect(text.contains("\"kv_cells_in_use\":128") && text.contains("\"decode_calls\":9") && text.contains("\"prefill_batches\":1"))
        let back = try decoder.decode(TurnMetrics.self, from: data)
        #expect(back.ledger == metrics().ledger)

        // A record written before the ledger: its new entries are unknown, never 0.
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["answer_digest", "kv_cells_in_use", "decode_calls", "prefill_batches"] { object[key] = nil }
        let old = try decoder.decode(TurnMetrics.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.ledger.decodeCalls == nil && old.ledger.kvCellsInUse == nil && old.ledger.answerDigest == nil)
        #expect(old.ledger.evaluatedTokens == 20)
    }

    @Test func digestsTellAnswersApartAndNeverMixTheirBases() throws {
        let tokens = AnswerDigest.of(tokens: [17, 42])
        #expect(tokens == AnswerDigest.of(tokens: [17, 42]))
        #expect(tokens != AnswerDigest.of(tokens: [42, 17]))
        #expect(AnswerDigest.of(text: "Paris") != AnswerDigest.of(text: "Lyon"))
        // The FNV-1a 64 reference value of "a".
        #expect(AnswerDigest.of(text: "a").description == "text:af63dc4c8601ec8c")
        #expect(AnswerDigest(tokens.description) == tokens)
        #expect(AnswerDigest("text:123") == nil && AnswerDigest("bytes:af63dc4c8601ec8c") == nil)
        let empty = AnswerDigest.of(text: "")
        #expect(empty != AnswerDigest.of(tokens: []), "the same bytes under two bases are two digests")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([AnswerDigest].self, from: Data("[\"tokens:xyz\"]".utf8)) }
    }

    @Test func workAndTimeApart() {
        let metrics = metrics()
        #expect(metrics.prefillTimePerEvaluatedToken == 0.1 / 20)
        #expect(metrics.decodeTimePerGeneratedToken == 0.4 / 8)
    }

    @Test func textDivergenceNamesTheFirstDifferentCharacter() throws {
        let divergence = try #require(TextDivergence("The capital is Paris.", "The capital is Lyon.", context: 6))
        #expect(divergence.offset == 15 && divergence.before == "al is " && divergence.first == "Paris." && divergence.second == "Lyon.")
        #expect(TextDivergence("same", "same") == nil)
        #expect(TextDivergence("short", "shorter")?.offset == 5)
    }
}

/// A sampled conversation's repetitions are samples, not copies: repetition k seeds with
/// seed + k − 1 (wrapping at 2³²), so the ledger sees them vary; greedy decoding is untouched.
@Suite struct RepetitionSeedTests {
    @Test func eachSampledRepetitionDrawsWithItsOwnSeed() {
        let sampled = GenerationOptions(temperature: 0.8, seed: 42)
        #expect((0...4).map { sampled.forRepetition($0).seed } == [42, 42, 43, 44, 45])
        #expect(GenerationOptions(temperature: 0.8, seed: .max).forRepetition(3).seed == 1)
        let greedy = GenerationOptions(seed: 42)
        #expect(greedy.forRepetition(7) == greedy)
    }
}
