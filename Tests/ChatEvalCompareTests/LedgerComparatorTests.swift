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
    /// Each check's type ("icontains" where absent) and recorded `Verdict.measured` (nil where absent).
    var checkTypes: [String] = []
    var measured: [Bool?] = []
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
            let verdicts = spec.checks.enumerated().map { position, passed in
                var verdict = Verdict(
                    check: position < spec.checkTypes.count ? spec.checkTypes[position] : "icontains", passed: passed,
                    detail: passed ? "found" : "not found")
                verdict.measured = position < spec.measured.count ? spec.measured[position] : nil
                return verdict
            }
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

    private func side(
        _ turns: [LedgerTurnSpec], repetitions: Int = 1, temperature: Double = 0, varying: Int? = nil, threads: Int = 2, cpu: String = "cpu"
    ) -> RecordBuilder {
        var builder = RecordBuilder(cpu: cpu, threads: threads)
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
        #expect(TurnLedgers([side(chat, repetitions: 4, temperature: 0.8).record]).entries.values.allSatisfy { $0.determinism == .sampled })

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

    /// Issue 41, item 1: a check whose verdict reads timings or memory — a limit on TTFT or decode
    /// rate, or a combinator holding one — flips with the machine on the very same answer, so a
    /// flip is never a certain change; it goes to the counting test. Records written before
    /// `measured` are judged by the check's type, combinators as "may read them". A check of the
    /// answer alone, or a limit on a count of work (generated tokens), stays exact.
    @Test func aCheckThatReadsTimingsIsNeverComparedExactly() throws {
        let timed: [(type: String, measured: Bool?)] = [
            ("ttft", true), ("ttft", nil), ("not-decode-tps", nil), ("peak-memory", nil), ("all", true), ("all", nil), ("any", nil),
            ("not", true),
        ]
        for (type, measured) in timed {
            var passes = chat, fails = chat
            (passes[0].checks, passes[0].checkTypes, passes[0].measured) = ([true], [type], [measured])
            (fails[0].checks, fails[0].checkTypes, fails[0].measured) = ([false], [type], [measured])
            for repetitions in [1, 3] {
                let ledger = LedgerComparator.compare(
                    base: [side(passes, repetitions: repetitions).record], head: [side(fails, repetitions: repetitions).record])
                #expect(ledger.checks.isEmpty && !ledger.hasRegression, "\(type) measured \(String(describing: measured))")
            }
        }
        let exact: [(type: String, measured: Bool?)] = [("icontains", nil), ("generated-tokens", false), ("all", false), ("regex", nil)]
        for (type, measured) in exact {
            var passes = chat, fails = chat
            (passes[0].checks, passes[0].checkTypes, passes[0].measured) = ([true], [type], [measured])
            (fails[0].checks, fails[0].checkTypes, fails[0].measured) = ([false], [type], [measured])
            let ledger = LedgerComparator.compare(base: [side(passes).record], head: [side(fails).record])
            #expect(ledger.checkRegressions.only?.check == type, "\(type) is a function of the answer")
        }
    }

    /// Issue 41, item 2: a sampled turn is never exact, however many repetitions agree — at a
    /// near-greedy temperature five identical replays say nothing about the sixth once the input
    /// changes — so a changed prompt on sampled turns is left to the statistical gate.
    @Test func aSampledTurnIsNeverExactHoweverManyRepetitionsAgree() {
        let alike = TurnLedgers([side(chat, repetitions: 5, temperature: 0.01).record])
        #expect(alike.entries.values.allSatisfy { $0.determinism == .sampled && !$0.determinism.isComparable })
        #expect(
            TurnLedgers([side(chat, repetitions: 3, temperature: 0.8, varying: 1).record]).entries.values.map(\.determinism).contains(
                .varies))
        var longer = chat
        longer[0].prompt += 5
        longer[0].checks = [false]
        var base = chat
        base[0].checks = [true]
        let ledger = LedgerComparator.compare(
            base: [side(base, repetitions: 2, temperature: 0.01).record], head: [side(longer, repetitions: 2, temperature: 0.01).record])
        #expect(ledger.turnsExact == 0 && ledger.changes.isEmpty && ledger.checks.isEmpty && !ledger.hasRegression)
        #expect(ledger.varying.count == 3 && ledger.varying.allSatisfy { $0.base == .sampled && $0.head == .sampled })
    }

    /// Issue 41, item 2: one greedy repetition is exact only against a side that computed with the
    /// same arithmetic — engine build, threads, batch size and CPU. Across arithmetics a change is
    /// reported, with the reason, and never gated.
    @Test func aLedgerOfAnotherArithmeticIsReportedNeverGated() throws {
        var fails = chat
        fails[0].checks = [false]
        fails[0].answer = "Max."
        fails[1].prompt += 4
        var passes = chat
        passes[0].checks = [true]
        let alike = LedgerComparator.compare(base: [side(passes).record], head: [side(fails).record])
        #expect(alike.notGated == nil && alike.hasRegression)
        for (threads, cpu, named) in [(1, "cpu", "threads 2 → 1"), (2, "other cpu", "CPU cpu, x86_64 → other cpu, x86_64")] {
            let ledger = LedgerComparator.compare(base: [side(passes).record], head: [side(fails, threads: threads, cpu: cpu).record])
            let reason = try #require(ledger.notGated)
            #expect(reason.contains(named), "\(reason)")
            #expect(!ledger.hasRegression && ledger.regressions.isEmpty && ledger.checkRegressions.isEmpty)
            #expect(!ledger.brokenRules.isEmpty && !ledger.checksBroken.isEmpty, "still reported")
        }
        // Two runs of one side that computed differently: no fact either.
        let mixed = LedgerComparator.compare(
            base: [side(passes).record, side(passes, threads: 4).record], head: [side(fails).record])
        #expect(mixed.notGated != nil && !mixed.hasRegression)
    }

    /// With `--allow-mismatch` (sides measured on other machines or builds, compared anyway) the
    /// exact rules are reported, never gated: the comparison does not fail on them.
    @Test func aComparisonOfSidesNotMeasuredAlikeNeverGatesTheLedger() throws {
        var fails = chat
        fails[1].prompt += 4
        let base = side(chat, cpu: "one"), head = side(fails, cpu: "two")
        var comparison = RunComparator.compare(
            base: ComparedRuns(runs: [base.record], sources: []), head: ComparedRuns(runs: [head.record], sources: []), settings: .default)
        #expect(!comparison.mismatches.isEmpty)
        comparison.attachLedger(LedgerComparator.compare(base: [base.record], head: [head.record]))
        #expect(comparison.ledger?.notGated != nil && comparison.ledger?.brokenRules.isEmpty == false)
        #expect(!comparison.hasRegression)
        var alike = RunComparator.compare(
            base: ComparedRuns(runs: [side(chat).record], sources: []), head: ComparedRuns(runs: [side(fails).record], sources: []),
            settings: .default)
        alike.attachLedger(LedgerComparator.compare(base: [side(chat).record], head: [side(fails).record]))
        #expect(alike.ledger?.notGated == nil && alike.hasRegression)
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
