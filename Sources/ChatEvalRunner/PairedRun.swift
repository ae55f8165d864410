import ChatEvalCompare
import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// `run --baseline` as a library: a base and a head replayed in the same process, interleaved
/// conversation by conversation, in rounds of repetitions until the comparison is decided.
///
/// After each round (the looks of `design`: 2, 3, 4, 6, 8, 11, ... repetitions per side) the two
/// records are compared at that look's share of the error rates (`SequentialDesign`), and the run
/// stops at the first look where
/// - a regression is confirmed (more repetitions cannot undo it) and no metric the settings'
///   `priority` lists (TTFT by default) is still open — while one is, rounds go on, and the
///   regression confirmed stands at every later look (`Comparison.keepRegressions`),
/// - everything is decided (`Comparison.isDecided`: no metric, check or turn left that more
///   repetitions could turn into a regression),
/// - the design's last look is reached, or
/// - the next round would end past `timeBudget` (estimated from the rounds so far): the last look
///   is then taken again with everything not yet spent; a round the budget runs out in stops
///   there (no new slot, nothing measured again) and its look spends the rest.
/// A fixed design (one look) is the classic fixed-count paired run.
///
/// Repetitions during which other processes held the cores are measured again (`busyRetries`
/// times at most; see `SuiteRunner`), the disturbed ones kept in the records, marked.
public struct PairedRun: Sendable {
    public var base: RunArm
    public var head: RunArm
    public var design: SequentialDesign
    /// Seconds after which no new round starts; nil for no limit.
    public var timeBudget: Double?
    public var busyRetries: Int
    public var keepsPrompts: Bool
    /// The comparison's settings (preset and project file) and the command line's overrides.
    public var settings: ComparisonSettings
    public var overrides: ComparisonOverrides
    public var loadProbe: SuiteRunner.LoadProbe
    /// Which exact ledger changes fail the comparison (the project file's `ledger:`).
    public var ledgerGates = LedgerGates.default
    /// Changes the head's commits declare (`ChatEval-Expect`): accepted at every look, so an
    /// expected regression neither fails the run nor ends its rounds.
    public var expectations: [Expectation] = []
    /// A question of the caller's that keeps the rounds going while it is open, even when the
    /// comparison is decided (a bisection's pass-rate probe: until a drop is shown or ruled out).
    /// Asked at each look with that look's comparison and the records (base, head).
    public var stillOpen: (@Sendable (Comparison, [RunRecord]) -> Bool)?

    public init(
        base: RunArm, head: RunArm, design: SequentialDesign, timeBudget: Double? = nil, busyRetries: Int = 2,
        keepsPrompts: Bool = false, settings: ComparisonSettings, overrides: ComparisonOverrides = ComparisonOverrides(),
        loadProbe: @escaping SuiteRunner.LoadProbe = SuiteRunner.machineLoad
    ) {
        self.loadProbe = loadProbe
        self.base = base
        self.head = head
        self.design = design
        self.timeBudget = timeBudget.flatMap { $0 > 0 ? $0 : nil }
        self.busyRetries = busyRetries
        self.keepsPrompts = keepsPrompts
        self.settings = settings
        self.overrides = overrides
    }

    /// What a paired run left: both records (base first), the comparison at the look it stopped
    /// at (nil when it was interrupted before the first look), and why it stopped.
    public struct Outcome: Sendable {
        public var base: RunRecord
        public var head: RunRecord
        public var comparison: Comparison?
        public var sequential: SequentialOutcome
    }

    /// Runs both arms into `records` (base, head; listing no suites yet), written by `writers`.
    /// Throws only when a result cannot be written. Stopping (`stop`, or cancelling the task)
    /// ends the round in progress; the records are then incomplete and not compared.
    // Longer than 80 lines because every exit of the one loop of looks (budget, stop, decision) updates its shared state together.
    public func run(
        base baseRecord: RunRecord, head headRecord: RunRecord, writers: [ResultWriter], stop: StopRequest,
        observer: (any RunObserver)? = nil, clock: @escaping @Sendable () -> Double = PairedRun.now
    ) async throws -> Outcome {
        var arms = [base, head]
        for index in arms.indices { arms[index].plan.settings.repetitions = design.maximum }
        let threshold = settings.applying(overrides).busyThreshold
        let runner = SuiteRunner(
            arms: arms, keepsPrompts: keepsPrompts, busyRetries: threshold == nil ? 0 : busyRetries,
            busyThreshold: threshold ?? .infinity, loadProbe: loadProbe)
        // Each record names its pair from the start: the comparison after every round knows the
        // sides were interleaved (and screened pair by pair, not replay by replay).
        var paired = (base: baseRecord, head: headRecord)
        paired.base.pairedRunId = headRecord.runId
        paired.head.pairedRunId = baseRecord.runId
        var records = try runner.begin([paired.base, paired.head], writers: writers)
        let started = clock()
        var done = 0
        var looks: [String] = []
        var comparison: Comparison?
        var stopReason = SequentialOutcome.Stop.maximumRepetitions
        var rounds = 0
        var lastLook: ComparisonLook?
        // Regressions confirmed at earlier looks, kept by every later comparison (and recorded).
        var confirmed: [Confirmed] = []
        func compare(_ records: [RunRecord], look: ComparisonLook, detail: Bool) -> Comparison {
            keepingConfirmed(self.compare(records, look: look, detail: detail))
        }
        func keepingConfirmed(_ measured: Comparison) -> Comparison {
            var comparison = measured
            for earlier in confirmed {
                comparison.keepRegressions(confirmedIn: earlier.comparison, look: earlier.look.index + 1, repetitions: earlier.repetitions)
            }
            return comparison
        }
        for (index, target) in design.looks.enumerated() {
            // A round that would end past the budget is not started: the last look is taken again
            // with what is left of the error rates.
            if let timeBudget, done > 0 {
                let elapsed = clock() - started
                let perRepetition = elapsed / Double(done)
                if elapsed + perRepetition * Double(target - done) > timeBudget {
                    stopReason = .timeBudget
                    let look = ComparisonLook.spendingTheRest(of: design, index: index - 1, after: index - 1)
                    comparison = compare(records, look: look, detail: true)
                    lastLook = look
                    looks.append(
                        describe(look: look, repetitions: done, comparison: comparison, note: "time budget: the rest of the error rates"))
                    break
                }
            }
            let finished = try await runner.replay(
                repetitions: (done + 1)...target, into: &records, writers: writers, stop: stop,
                observer: observer, deadline: timeBudget.map { started + $0 }, clock: clock)
            rounds += 1
            if stop.isRequested || Task.isCancelled {
                stopReason = .interrupted
                comparison = nil
                break
            }
            done = target
            for record in records.indices { records[record].settings.repetitions = done }
            if !finished {
                // The budget ran out within the round (a machine far slower than the rounds before,
                // or the first round alone longer than the budget): the last look, on what was measured.
                stopReason = .timeBudget
                let look = ComparisonLook.spendingTheRest(of: design, index: index, after: index - 1)
                comparison = compare(records, look: look, detail: true)
                lastLook = look
                looks.append(
                    describe(
                        look: look, repetitions: done, comparison: comparison,
                        note: "the time budget ran out within the round: the rest of the error rates, on the replays measured"))
                await observer?.lookTaken(looks.last ?? "")
                break
            }
            let look = ComparisonLook(index: index, of: design)
            let measured = self.compare(records, look: look, detail: false)
            let decided = keepingConfirmed(measured)
            if measured.hasRegression {
                confirmed.append(Confirmed(comparison: measured, look: look, repetitions: done))
            }
            let open = decided.priorityOpen
            looks.append(
                describe(
                    look: look, repetitions: done, comparison: decided,
                    note: decided.hasRegression && !open.isEmpty && index < design.looks.count - 1
                        ? "measuring on while \(Set(open.map(\.change.metric.name)).sorted().joined(separator: ", ")) is open" : nil))
            await observer?.lookTaken(looks.last ?? "")
            let settled = decided.isDecided && stillOpen?(decided, records) != true
            if decided.hasRegression && open.isEmpty || settled || index == design.looks.count - 1 {
                stopReason = decided.hasRegression ? .regression : settled ? .decided : .maximumRepetitions
                comparison = compare(records, look: look, detail: true)
                lastLook = look
                break
            }
        }
        for record in records.indices {
            records[record].settings.repetitions = done
            if let look = lastLook {
                var decided = gate.recorded(
                    in: DecidedLook(looks: design.looks, look: look.index + 1, share: look.share, intervalShare: look.intervalShare))
                decided.confirmed = confirmed.map { earlier in
                    DecidedLook.ConfirmedLook(
                        look: earlier.look.index + 1, repetitions: earlier.repetitions, share: earlier.look.share,
                        intervalShare: earlier.look.intervalShare)
                }
                records[record].decidedLook = decided
            }
        }
        try runner.finish(&records, writers: writers, interrupted: stopReason == .interrupted)
        let sequential = SequentialOutcome(stop: stopReason, repetitions: done, rounds: rounds, seconds: clock() - started, looks: looks)
        if var final = comparison {
            // Compared once more on the finished records as their files give them back, the way
            // `chateval compare` of those files compares them: at the look, with the settings and
            // the earlier looks' confirmed regressions the records now hold.
            let written = (base: records[0].asWritten, head: records[1].asWritten)
            final =
                RunComparator.comparePairedAgain(base: written.base, head: written.head)
                ?? compare(records, look: lastLook ?? ComparisonLook(index: final.design.look - 1, of: design), detail: true)
            final.sequential = design.isSequential ? sequential : nil
            comparison = final
        }
        return Outcome(base: records[0], head: records[1], comparison: comparison, sequential: sequential)
    }

    /// A look's comparison whose regressions stand at every later look.
    private struct Confirmed {
        var comparison: Comparison
        var look: ComparisonLook
        var repetitions: Int
    }

    /// What this run decides with, recorded in its records (`DecidedLook`).
    public var gate: PairedGateSettings {
        PairedGateSettings(settings: settings, overrides: overrides, ledgerGates: ledgerGates, expectations: expectations)
    }

    /// A look's comparison of `records` (base, head) as their files hold them (times at the
    /// microsecond they are written at), so that the files compared again decide alike.
    private func compare(_ records: [RunRecord], look: ComparisonLook, detail: Bool) -> Comparison {
        RunComparator.comparePaired(base: records[0].asWritten, head: records[1].asWritten, gate: gate, look: look, turnDetail: detail)
    }

    private func describe(look: ComparisonLook, repetitions: Int, comparison: Comparison?, note: String?) -> String {
        guard let comparison else { return "look \(look.index + 1) at \(repetitions) repetitions: not compared" }
        let open =
            comparison.underpowered.map { "\($0.suite) \($0.change.metric.name)" }
            + comparison.quality.undecided.map { "\($0.suite)/\($0.conversation) check \($0.position)" }
        var text = "look \(look.index + 1) at \(repetitions) repetitions per side: "
        let regressed =
            comparison.metricRegressions.map { "\($0.suite) \($0.change.metric.name)" }
            + comparison.quality.regressions.map { "\($0.suite)/\($0.conversation) check \($0.position)" }
            + comparison.quality.turnRegressions.map { "\($0.suite)/\($0.conversation) turn \($0.turn)" }
            + (comparison.ledger?.regressions.map { "\($0.turn) ledger" } ?? [])
            + (comparison.ledger?.checkRegressions.map { "\($0.turn) check \($0.position + 1) (exact)" } ?? [])
        text +=
            !regressed.isEmpty
            ? "regression in \(regressed.prefix(3).joined(separator: ", "))\(regressed.count > 3 ? ", …" : "")"
            : open.isEmpty ? "decided" : "\(open.count) undecided (\(open.prefix(3).joined(separator: ", "))\(open.count > 3 ? ", …" : ""))"
        if let note { text += " — \(note)" }
        return text
    }

    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The base's suites cut to the conversations the head's selection picked (by suite name and
    /// id), so that both sides replay the same conversations; suites left empty are dropped.
    public static func aligned(base: [Suite], toHead head: [Suite], selection: SuiteSelection) -> [Suite] {
        guard !selection.isEmpty else { return base }
        return base.compactMap { suite in
            var kept = suite
            let ids = Set(head.first { $0.name == suite.name }?.conversations.map(\.id) ?? [])
            kept.conversations = suite.conversations.filter { ids.contains($0.id) }
            return kept.conversations.isEmpty ? nil : kept
        }
    }
}
