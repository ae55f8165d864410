import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalCompare

/// One turn's recorded work, as a test writes it.
struct LedgerTurnSpec {
    var prompt = 100
    var reusable = 0
    var reused = 0
    var generated = 10
    var answer = "Paris."
    var checks: [Bool] = []
    var messagesSent = 2
    var miss: ReuseMiss.Cause?
    var prefillTime = 0.1
}

extension RecordBuilder {
    /// Adds one replay whose turns have exactly these ledgers.
    mutating func replay(
        suite: String = "s", conversation: String = "c", repetition: Int, ledger turns: [LedgerTurnSpec], temperature: Double = 0,
        systemPrompt: String? = nil
    ) {
        let records = turns.enumerated().map { index, spec -> TurnRecord in
            var metrics = TurnMetrics(
                promptTokens: spec.prompt, reusedTokens: spec.reused, generatedTokens: spec.generated, timeToFirstToken: 0.2,
                prefillTime: spec.prefillTime, decodeTime: 0.3, totalTime: 0.5,
                interTokenLatencies: Array(repeating: 0.03, count: spec.generated - 1), stopReason: .endOfGeneration,
                reusableTokens: spec.reusable,
                reuseMiss: spec.miss.map { ReuseMiss(cause: $0, position: 7, before: "", cached: "", sent: "") })
            metrics.decodeCalls = 1 + spec.generated - 1
            metrics.prefillBatches = 1
            metrics.kvCellsInUse = spec.prompt + spec.generated - 1
            metrics.answerDigest = AnswerDigest.of(text: spec.answer)
            let verdicts = spec.checks.map { Verdict(check: "icontains", passed: $0, detail: $0 ? "found" : "not found") }
            return TurnRecord(
                ReplayedTurn(
                    index: index, user: "u", messagesSent: spec.messagesSent, status: .answered, answer: spec.answer, metrics: metrics),
                checks: verdicts.isEmpty ? nil : verdicts)
        }
        let replay = ConversationRecord(
            id: conversation, repetition: repetition, warmup: false, systemPrompt: systemPrompt,
            options: GenerationOptions(temperature: temperature), turns: records)
        append(replay, suite: suite)
    }
}

@Suite struct LedgerComparatorTests {
    /// A three-turn chat with full reuse: what the base of these tests replays.
    let chat = [
        LedgerTurnSpec(prompt: 30, reusable: 0, reused: 0, generated: 8, answer: "Rex."),
        LedgerTurnSpec(prompt: 52, reusable: 37, reused: 37, generated: 6, answer: "A dog.", messagesSent: 4),
        LedgerTurnSpec(prompt: 70, reusable: 57, reused: 57, generated: 5, answer: "Rex!", messagesSent: 6),
    ]

    private func side(_ turns: [LedgerTurnSpec], repetitions: Int = 1, temperature: Double = 0, varying: Int? = nil) -> RecordBuilder {
        var builder = RecordBuilder()
        for repetition in 1...repetitions {
            var turns = turns
            if let varying, repetition > 1 { turns[varying].generated += repetition }
            builder.replay(repetition: repetition, ledger: turns, temperature: temperature)
        }
        return builder
    }

    @Test func identicalSidesShowNoDifferenceAtOneRepetition() {
        let ledger = LedgerComparator.compare(base: [side(chat).record], head: [side(chat).record])
        #expect(ledger.turnsCompared == 3 && ledger.turnsExact == 3)
        #expect(ledger.changes.isEmpty && ledger.checks.isEmpty && !ledger.hasRegression)
    }

    /// A history window that drops the first exchange: turn 3 evaluates far more and reuses
    /// less, with the accounting's cause — a regression at one repetition per side.
    @Test func aHistoryWindowThatBreaksReuseIsAnExactRegressionNamingTurnAndCause() throws {
        var windowed = chat
        windowed[2] = LedgerTurnSpec(
            prompt: 48, reusable: 47, reused: 3, generated: 5, answer: "Rex!", messagesSent: 4, miss: .earlierTurnsRerendered)
        let ledger = LedgerComparator.compare(base: [side(chat).record], head: [side(windowed).record])
        let change = try #require(ledger.regressions.only)
        #expect(change.turn == LedgerTurn(suite: "s", conversation: "c", turn: 3))
        #expect(change.regressions == ["evaluated tokens grew", "reuse efficiency fell"])
        let evaluated = try #require(change.differences.first { $0.name == "evaluated" })
        #expect(evaluated.base == "13" && evaluated.head == "45" && evaluated.change == 32)
        let cause = try #require(change.cause)
        #expect(cause.contains("earlier turns sent differently at token 7"))
        #expect(cause.contains("4 messages sent where base sent 6 (a history window)"))
        #expect(ledger.hasRegression)
    }

    @Test func longerAnswersAreNamedButOnlyGatedWhenAsked() throws {
        var longer = chat
        longer[0].generated = 48
        longer[0].answer = "Rex, a name that suits a dog very well indeed."
        let reported = LedgerComparator.compare(base: [side(chat).record], head: [side(longer).record])
        let change = try #require(reported.changes.only)
        #expect(change.differences.contains { $0.name == "generated" && $0.change == 40 })
        #expect(change.cause?.contains("the answer is 40 tokens longer") == true)
        #expect(change.answer?.offset == 3)
        #expect(change.regressions.isEmpty && !reported.hasRegression)
        #expect(reported.answersChanged.count == 1)

        let gated = LedgerComparator.compare(
            base: [side(chat).record], head: [side(longer).record], gates: LedgerGates(generatedTokens: .gate, answers: .gate))
        #expect(gated.regressions.only?.regressions == ["generated tokens grew", "the answer changed"])
    }

    /// Determinism established, not assumed: ten identical repetitions are exact; a turn whose
    /// ledger moves between repetitions varies and is never compared exactly; one sampled
    /// repetition is never exact.
    @Test func determinismIsEstablishedPerTurn() {
        let exact = TurnLedgers([side(chat, repetitions: 10).record])
        #expect(exact.entries.values.allSatisfy { $0.determinism == .exact })
        let moving = TurnLedgers([side(chat, repetitions: 3, varying: 1).record])
        #expect(moving.entries[LedgerTurn(suite: "s", conversation: "c", turn: 2)]?.determinism == .varies)
        #expect(moving.entries[LedgerTurn(suite: "s", conversation: "c", turn: 1)]?.determinism == .exact)
        #expect(TurnLedgers([side(chat).record]).entries.values.allSatisfy { $0.determinism == .greedyOnce })
        #expect(TurnLedgers([side(chat, temperature: 0.8).record]).entries.values.allSatisfy { $0.determinism == .sampledOnce })

        var longer = chat
        longer[1].generated = 60
        let ledger = LedgerComparator.compare(base: [side(chat, repetitions: 3, varying: 1).record], head: [side(longer).record])
        #expect(ledger.varying.map(\.turn.turn) == [2] && ledger.varying.first?.base == .varies)
        #expect(ledger.changes.isEmpty, "a varying turn is left to the statistical gate")
        let sampled = LedgerComparator.compare(base: [side(chat, temperature: 0.8).record], head: [side(longer, temperature: 0.8).record])
        #expect(sampled.turnsExact == 0 && sampled.changes.isEmpty)
    }

    /// Item 7: a check that passed on every base replay and fails on every head replay, with the
    /// same answer in every replay of each side, is a certain change — at one repetition too.
    @Test func aCheckThatTurnsOnExactAnswersIsARegressionAtOneRepetition() throws {
        var right = chat
        right[0].checks = [true, true]
        var wrong = chat
        wrong[0].checks = [false, true]
        wrong[0].answer = "Max."
        for repetitions in [1, 4] {
            let ledger = LedgerComparator.compare(
                base: [side(right, repetitions: repetitions).record], head: [side(wrong, repetitions: repetitions * 2).record])
            let check = try #require(ledger.checkRegressions.only)
            #expect(check.position == 0 && check.baseReplays == repetitions && check.headReplays == repetitions * 2)
            #expect(check.answer?.first == "Rex." && check.answer?.second == "Max.")
            #expect(ledger.hasRegression)
        }
        let improvement = LedgerComparator.compare(base: [side(wrong).record], head: [side(right).record])
        #expect(improvement.checks.only?.headPasses == true && !improvement.hasRegression)
    }

    @Test func aCheckOnAnswersThatVaryIsNotDecidedExactly() {
        var right = chat
        right[0].checks = [true]
        var base = side(right)
        var other = right
        other[0].answer = "Rex, maybe."
        base.replay(repetition: 2, ledger: other)
        var wrong = chat
        wrong[0].checks = [false]
        let ledger = LedgerComparator.compare(base: [base.record], head: [side(wrong).record])
        #expect(ledger.checks.isEmpty && !ledger.hasRegression)
    }

    @Test func workAndTimeAreReportedApart() throws {
        var slower = chat
        for index in slower.indices { slower[index].prefillTime = 0.2 }
        let ledger = LedgerComparator.compare(base: [side(chat).record], head: [side(slower).record])
        let work = try #require(ledger.work.only)
        #expect(work.baseEvaluated == work.headEvaluated && work.baseEvaluated == 30 + 15 + 13)
        #expect(work.baseGenerated == 19)
        let base = try #require(work.basePrefillPerToken), head = try #require(work.headPrefillPerToken)
        #expect(abs(head / base - 2) < 1e-9, "the same work, twice the time per token: slower work")
        #expect(ledger.changes.isEmpty)
    }
}

extension Collection {
    /// The one element, or nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}

/// reports/schema/comparison.schema.json documents the ledger part of a comparison.
@Suite struct LedgerSchemaTests {
    @Test func everyLedgerKeyIsInTheSchema() throws {
        var right = LedgerComparatorTests().chat
        right[0].checks = [true]
        var wrong = right
        wrong[0].checks = [false]
        wrong[0].answer = "Max."
        wrong[2] = LedgerTurnSpec(
            prompt: 48, reusable: 47, reused: 3, generated: 5, answer: "Rex!", messagesSent: 4, miss: .earlierTurnsRerendered)
        var base = RecordBuilder(), head = RecordBuilder()
        base.replay(repetition: 1, ledger: right)
        base.replay(conversation: "sampled", repetition: 1, ledger: right, temperature: 1)
        head.replay(repetition: 1, ledger: wrong)
        head.replay(conversation: "sampled", repetition: 1, ledger: right, temperature: 1)
        var comparison = RunComparator.compare(
            base: ComparedRuns(runs: [base.record], sources: []), head: ComparedRuns(runs: [head.record], sources: []), settings: .default)
        comparison.ledger = LedgerComparator.compare(base: [base.record], head: [head.record])
        let ledger = try #require(comparison.ledger)
        #expect(!ledger.changes.isEmpty && !ledger.checks.isEmpty && !ledger.varying.isEmpty && !ledger.work.isEmpty)
        #expect(comparison.hasRegression, "an exact ledger regression fails the comparison")
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: ComparisonSchemaTests.schemaURL)) as? [String: Any])
        let document = try JSONSerialization.jsonObject(with: try ResultWriter.makeEncoder(pretty: false).encode(comparison))
        #expect(SchemaCoverage.undocumentedKeys(in: document, schema: schema, root: schema).isEmpty)
    }
}

@Suite struct LedgerOfDisturbedReplaysTests {
    /// A replay left out of the timing comparison because other processes held the cores still
    /// did its work exactly: the ledger counts it.
    @Test func aReplayLeftOutForABusyMachineStillCountsInTheLedger() {
        var base = RecordBuilder()
        base.replay(repetition: 1, ledger: LedgerComparatorTests().chat)
        base.record.suites[0].conversations[0].leftOut = "other processes used 1.5 cores"
        let side = TurnLedgers([base.record])
        #expect(side.entries.count == 3 && side.entries.values.allSatisfy { $0.determinism == .greedyOnce })
    }
}
