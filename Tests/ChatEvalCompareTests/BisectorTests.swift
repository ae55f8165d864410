import ChatEvalCore
import ChatEvalStore
import Foundation
import Testing

@testable import ChatEvalCompare

/// The bisection's search on scripted probes: where the culprits are, what is probed, what is
/// never guessed, and how the error rate is shared.
@Suite struct BisectorTests {
    /// Answers probes from a script of steps: a signal changed between two states when a step of
    /// it lies after the base and at or before the head; `undecidedHeads` answer undecided;
    /// `stopAfter` probes, it interrupts. Records every probe asked.
    actor ScriptedProber: BisectProber {
        let steps: [BisectSignal: [Int]]
        let undecidedHeads: Set<Int>
        /// Heads a probe against the state just before them calls the same, whatever the steps.
        let sameAdjacent: Set<Int>
        let stopAfter: Int?
        /// States whose build fails: a probe of them throws `BisectSkip`.
        let unbuildable: Set<Int>
        /// Probes (base, head) whose base cannot be measured this time (a server that did not
        /// answer): they throw a transient `BisectSkip` of the base.
        let transientSkips: Set<[Int]>
        /// Exact probes between other states than these ends that compare nothing exactly (their
        /// turns sampled on a side): no readings, and a scope saying so.
        let exactComparesNothingBut: [Int]?
        /// Advanced by 10 s at each probe, when given.
        let clock: FakeClock?
        private(set) var asked: [BisectProbe] = []

        init(
            steps: [BisectSignal: [Int]], undecidedHeads: Set<Int> = [], sameAdjacent: Set<Int> = [], stopAfter: Int? = nil,
            unbuildable: Set<Int> = [], transientSkips: Set<[Int]> = [], exactComparesNothingBut: [Int]? = nil, clock: FakeClock? = nil
        ) {
            self.unbuildable = unbuildable
            self.transientSkips = transientSkips
            self.exactComparesNothingBut = exactComparesNothingBut
            self.clock = clock
            self.steps = steps
            self.undecidedHeads = undecidedHeads
            self.sameAdjacent = sameAdjacent
            self.stopAfter = stopAfter
        }

        func probe(_ probe: BisectProbe) async throws -> BisectProbeResult {
            if let stopAfter, asked.count >= stopAfter { throw BisectInterruption() }
            if let state = [probe.base, probe.head].first(where: unbuildable.contains) {
                throw BisectSkip(state: state, reason: "the build failed")
            }
            if transientSkips.contains([probe.base, probe.head]) {
                throw BisectSkip(state: probe.base, reason: "the server did not answer in time")
            }
            asked.append(probe)
            clock?.advance(10)
            if probe.kind == .exact, let ends = exactComparesNothingBut, [probe.base, probe.head] != ends {
                var result = BisectProbeResult(readings: [], repetitions: 1, seconds: 1)
                result.exactScope = ExactScope(
                    exactTurnsBySuite: [:], uncompared: [LedgerTurn(suite: "smoke", conversation: "capital", turn: 1)], notGated: nil)
                return result
            }
            var readings: [SignalReading] = []
            for (signal, at) in steps {
                switch probe.kind {
                case .exact where !signal.isExact: continue
                case .paired(let asked, _, _) where asked != signal: continue
                default: break
                }
                var between = at.filter { $0 > probe.base && $0 <= probe.head }.count
                if probe.base == probe.head - 1, sameAdjacent.contains(probe.head) { between = 0 }
                if undecidedHeads.contains(probe.head), !signal.isExact, !isEndpoints(probe) {
                    readings.append(SignalReading(signal: signal, side: .undecided, detail: "scripted undecided"))
                } else if between > 0 {
                    readings.append(SignalReading(signal: signal, side: .changed, change: 0.1 * Double(between), lower: 0.05, detail: ""))
                } else if case .paired = probe.kind {
                    readings.append(SignalReading(signal: signal, side: .same, change: 0, detail: "scripted same"))
                }
            }
            var result = BisectProbeResult(readings: readings, repetitions: probe.kind == .exact ? 1 : 4, seconds: 1)
            // An exact probe compared every turn of the suite exactly: what it did not report is the same.
            if probe.kind == .exact { result.exactScope = ExactScope(exactTurnsBySuite: ["smoke": 2], uncompared: [], notGated: nil) }
            return result
        }

        private func isEndpoints(_ probe: BisectProbe) -> Bool {
            if case .endpoints = probe.kind { true } else { false }
        }
    }

    /// A clock a test advances: 10 s a probe.
    final class FakeClock: @unchecked Sendable {
        private let lock = NSLock()
        private var now = 0.0
        func advance(_ seconds: Double) { lock.withLock { now += seconds } }
        func read() -> Double { lock.withLock { now } }
    }

    /// Collects a bisection's progress lines.
    actor Lines {
        private(set) var lines: [String] = []
        func add(_ line: String) { lines.append(line) }
    }

    let ttft = BisectSignal.metric(suite: "smoke", metric: .timeToFirstToken)
    let ledger = BisectSignal.ledger(suite: "smoke")

    func states(_ count: Int) -> [BisectState] {
        (0..<count).map { BisectState(commit: "commit\($0)", shortId: "c\($0)", subject: "commit \($0)") }
    }

    @Test func anExactStepIsFoundByExactProbesAloneAndSpendsNoErrorRate() async throws {
        let prober = ScriptedProber(steps: [ledger: [11]])
        let outcome = try await Bisector(states: states(17)).run(prober)
        #expect(outcome.findings.map(\.signal) == [ledger])
        #expect(outcome.findings[0].culprits.map(\.state) == [11])
        let asked = await prober.asked
        // The ends replayed exactly first, then the exact search, then the ends' timings.
        #expect(asked.dropLast().allSatisfy { $0.kind == .exact })
        #expect(asked.last?.kind == .endpoints(errorRate: 0.025))
        // Binary search over 16 intervals (4 probes) and the ranges beside the culprit checked once
        // each; the last probe compared the culprit with its parent, so no confirmation is needed.
        let expected: Int = 1 + 4 + 2 + 1
        #expect(asked.count == expected)
        #expect(outcome.budget?.testedSignals == 0)
        #expect(!outcome.interrupted)
    }

    @Test func aMetricStepIsConfirmedAgainstTheStateBeforeIt() async throws {
        let prober = ScriptedProber(steps: [ttft: [5]])
        let outcome = try await Bisector(states: states(17)).run(prober)
        let culprit = try #require(outcome.findings.first?.culprits.first)
        #expect(culprit.state == 5)
        #expect(culprit.comparedWith == 4)
        let asked = await prober.asked
        #expect(asked.contains { $0.base == 4 && $0.head == 5 })
        #expect(outcome.findings[0].notes.contains { $0.hasPrefix("no further step in c5..c16") })
        #expect(outcome.budget?.testedSignals == 1)
    }

    @Test func twoStepsOfOneSignalNameTwoCulprits() async throws {
        let prober = ScriptedProber(steps: [ttft: [4, 12]])
        let outcome = try await Bisector(states: states(17)).run(prober)
        #expect(Set(outcome.findings[0].culprits.map(\.state)) == [4, 12])
    }

    @Test func twoSignalsAreChasedApartExactFirst() async throws {
        let check = BisectSignal.exactCheck(place: .init(suite: "smoke", conversation: "capital", turn: 1, position: 1, check: "contains"))
        let prober = ScriptedProber(steps: [ttft: [11], check: [5], ledger: [11]])
        let outcome = try await Bisector(states: states(17)).run(prober)
        #expect(outcome.findings.map(\.signal) == [ledger, check, ttft])
        #expect(outcome.findings.map { $0.culprits.map(\.state) } == [[11], [5], [11]])
    }

    @Test func aProbeThatCannotDecideIsNamedAndNothingIsGuessed() async throws {
        let prober = ScriptedProber(steps: [ttft: [11]], undecidedHeads: [8])
        let outcome = try await Bisector(states: states(17)).run(prober)
        let finding = try #require(outcome.findings.first)
        #expect(finding.culprits.isEmpty)
        let range = try #require(finding.undecided.first)
        #expect((range.after, range.through, range.probed) == (0, 16, 8))
    }

    @Test func aCulpritNotConfirmedAgainstItsParentIsNotNamed() async throws {
        // The step is at 9, but the probe of 9 against 8 wrongly calls it the same: the search
        // ends at 10 (shown changed against 8), whose confirmation against 9 fails.
        let prober = ScriptedProber(steps: [ttft: [9]], sameAdjacent: [9])
        let outcome = try await Bisector(states: states(17)).run(prober)
        let finding = try #require(outcome.findings.first)
        #expect(finding.culprits.isEmpty)
        #expect(finding.undecided.map(\.probed) == [10])
        #expect(finding.notes.contains { $0.contains("not named") })
        #expect(await prober.asked.last.map { [$0.base, $0.head] } == [9, 10])
    }

    /// Issue 41, item 3: an exact culprit is confirmed against its parent too. The step is at 9,
    /// but the exact probe of 9 against 8 sees no change (its turns compared fewer than the
    /// endpoints' did): the search ends at 10, whose confirmation against 9 fails — not named.
    @Test func anExactCulpritIsConfirmedAgainstItsParentLikeATimingOne() async throws {
        let prober = ScriptedProber(steps: [ledger: [9]], sameAdjacent: [9])
        let outcome = try await Bisector(states: states(17)).run(prober)
        let finding = try #require(outcome.findings.first)
        #expect(finding.culprits.isEmpty, "\(finding.culprits.map(\.state))")
        #expect(finding.notes.contains { $0.contains("not named") })
        #expect(await prober.asked.contains { [$0.base, $0.head] == [9, 10] && $0.kind == .exact })
    }

    /// Issue 41, item 3: a probe that could not compare a signal reads it undecided, never
    /// "same". The endpoints differ in an exact signal, but every exact probe compares nothing
    /// exactly (the turns were sampled): before, each read "same" and the last commit was named.
    @Test func aProbeThatComparesNothingNamesNoCulprit() async throws {
        let prober = ScriptedProber(steps: [ledger: [2]], exactComparesNothingBut: [0, 5])
        let outcome = try await Bisector(states: states(6)).run(prober)
        let finding = try #require(outcome.findings.first)
        #expect(finding.culprits.isEmpty, "\(finding.culprits.map(\.state))")
        let range = try #require(finding.undecided.first)
        #expect((range.after, range.through) == (0, 5))
        #expect(range.reading.side == .undecided && range.reading.detail.contains("compared exactly"))
        // A probe result that reports nothing of a signal, with no scope, is undecided too.
        let silent = BisectProbeResult(readings: [], repetitions: 1, seconds: 1)
        #expect(silent.reading(of: ttft).side == .undecided && silent.reading(of: ledger).side == .undecided)
    }

    /// Issue 41, item 3: a commit that cannot be measured this time while a culprit is being
    /// confirmed (or a range beside it checked) leaves that question undecided; before, the skip
    /// was thrown out of the bisection and reported as "the bad end cannot be measured".
    @Test func aTransientSkipWhileConfirmingIsUndecidedNotAnEnd() async throws {
        // Step at 6 of 0...8: probes 0→4 same, 4→6 changed, 4→5 same, then 5→6 confirms — and skips.
        let prober = ScriptedProber(steps: [ttft: [6]], transientSkips: [[5, 6]])
        let outcome = try await Bisector(states: states(9)).run(prober)
        let finding = try #require(outcome.findings.first)
        #expect(finding.culprits.isEmpty)
        #expect(finding.undecided.first?.reading.detail == "c5 could not be measured (the server did not answer in time)")
        // Beside a culprit: the range after it cannot be measured.
        let beside = ScriptedProber(steps: [ttft: [4]], transientSkips: [[4, 8]])
        let second = try await Bisector(states: states(9)).run(beside)
        #expect(second.findings.first?.culprits.map(\.state) == [4])
        #expect(second.findings.first?.notes.contains { $0.contains("undecided") && $0.contains("c4 could not be measured") } == true)
    }

    /// Issue 41, item 3: the probe's threshold is half the endpoints' change, capped by the
    /// interval's end nearer no change — the upper end for a metric where bigger is better.
    @Test func theProbeThresholdsCapFollowsTheMetricsPolarity() async throws {
        actor Endpoints: BisectProber {
            let reading: SignalReading
            private(set) var thresholds: [Double?] = []
            init(_ reading: SignalReading) { self.reading = reading }
            func probe(_ probe: BisectProbe) async throws -> BisectProbeResult {
                if case .paired(_, let threshold, _) = probe.kind { thresholds.append(threshold) }
                let side: SignalReading.Side = probe.head >= 2 && probe.base < 2 ? .changed : .same
                var found = reading
                found.side = side
                return BisectProbeResult(readings: [found], repetitions: 4, seconds: 1)
            }
        }
        let decode = BisectSignal.metric(suite: "smoke", metric: .decodeTokensPerSecond)
        let slower = Endpoints(SignalReading(signal: decode, side: .changed, change: -0.20, lower: -0.34, upper: -0.06, detail: ""))
        _ = try await Bisector(states: states(5)).run(slower)
        let asked = await slower.thresholds
        #expect(!asked.isEmpty && asked.allSatisfy { $0.map { abs($0 - 0.06) < 1e-12 } == true }, "\(asked)")
        let later = Endpoints(SignalReading(signal: ttft, side: .changed, change: 0.20, lower: 0.06, upper: 0.34, detail: ""))
        _ = try await Bisector(states: states(5)).run(later)
        #expect(await later.thresholds.allSatisfy { $0.map { abs($0 - 0.06) < 1e-12 } == true })
        let check = BisectSignal.passRate(place: .init(suite: "smoke", conversation: "c", turn: 1, position: 1, check: "contains"))
        let dropped = Endpoints(SignalReading(signal: check, side: .changed, change: -0.9, detail: ""))
        _ = try await Bisector(states: states(5)).run(dropped)
        #expect(await dropped.thresholds.allSatisfy { $0.map { abs($0 - 0.45) < 1e-12 } == true })
    }

    /// Issue 41, item 3: a pass rate reads "same" only where the probe rules out a drop of half
    /// the endpoints' (the head's Clopper–Pearson lower bound less the base's upper bound, at the
    /// probe's error rate); a test that merely found no drop is undecided. Before, any probe
    /// without a significant drop read "same" — 3 of 3 against 3 of 3 included.
    @Test func aPassRateIsSameOnlyWhereADropIsRuledOut() {
        func side(_ passed: Int, of total: Int) -> [RunRecord] {
            var builder = RecordBuilder()
            for repetition in 1...total { builder.replay(repetition: repetition, ttft: [0.2], checks: [[repetition <= passed]]) }
            return [builder.record]
        }
        let place = BisectSignal.CheckPlace(suite: "s", conversation: "c", turn: 1, position: 1, check: "icontains")
        func reading(_ base: [RunRecord], _ head: [RunRecord], drop: Double? = 0.45) -> SignalReading {
            BisectReadings.passRateEquivalence(place, drop: drop, errorRate: 0.01, base: base, head: head)
        }
        #expect(reading(side(3, of: 3), side(3, of: 3)).side == .undecided)
        #expect(reading(side(30, of: 30), side(30, of: 30)).side == .same)
        #expect(reading(side(30, of: 30), side(20, of: 30)).side == .undecided)
        #expect(reading(side(27, of: 30), side(29, of: 30)).side == .same)
        #expect(reading(side(30, of: 30), side(30, of: 30), drop: nil).side == .undecided)
        // Through a paired probe's comparison: no significant drop at 3 of 3 is not "same".
        let base = side(3, of: 3), head = side(3, of: 3)
        let comparison = RunComparator.compare(
            base: ComparedRuns(runs: base, sources: []), head: ComparedRuns(runs: head, sources: []), settings: .default)
        let paired = BisectReadings.paired(.passRate(place: place), threshold: 0.45, in: comparison, base: base, head: head)
        #expect(paired.side == .undecided, "\(paired.detail)")
    }

    /// Issue 42, item 3: exact signals first. The ends are replayed once each and compared
    /// exactly before any timing round; an exact difference is chased at once and its culprit
    /// said as soon as it is found — before the ends' timings are even compared.
    @Test func exactCulpritsAreFoundAndSaidBeforeAnyTimingRound() async throws {
        let prober = ScriptedProber(steps: [ledger: [11], ttft: [5]])
        let lines = Lines()
        let outcome = try await Bisector(states: states(17)).run(prober) { await lines.add($0) }
        #expect(await prober.asked.first == BisectProbe(base: 0, head: 16, kind: .exact))
        let said = await lines.lines
        let culprit = try #require(said.firstIndex { $0.hasPrefix("culprit   smoke: exact work ledger: c11") }, "\(said)")
        let timings = try #require(said.firstIndex { $0.hasPrefix("endpoints:") })
        #expect(culprit < timings)
        #expect(said.contains { $0.hasPrefix("start     c16 against c0: the ends, exactly") })
        #expect(outcome.findings.map { $0.culprits.map(\.state) } == [[11], [5]])
    }

    /// Issue 42, item 4: past its deadline no probe starts, and what is known is reported. With
    /// time for the exact search only, the exact culprit is named and the timings are said not
    /// compared; with less, the exact search itself is cut and its signal named out of time.
    @Test func pastItsDeadlineNoProbeStartsAndWhatIsKnownIsReported() async throws {
        let enough = FakeClock()
        let exactOnly = try await Bisector(states: states(17), deadline: 65, clock: { enough.read() })
            .run(ScriptedProber(steps: [ledger: [11], ttft: [5]], clock: enough))
        #expect(exactOnly.findings.map(\.signal) == [ledger] && exactOnly.findings[0].culprits.map(\.state) == [11])
        #expect(exactOnly.timingNotMeasured != nil && exactOnly.endpoints == nil && exactOnly.outOfTime == nil)
        let short = FakeClock()
        let cut = try await Bisector(states: states(17), deadline: 35, clock: { short.read() })
            .run(ScriptedProber(steps: [ledger: [11], ttft: [5]], clock: short))
        #expect(cut.outOfTime == [ledger])
        #expect(
            cut.findings.first?.culprits.isEmpty == true && cut.findings.first?.undecided.first?.reading.detail == "the time budget ran out"
        )
        #expect(cut.timingNotMeasured != nil)
    }

    @Test func aCommitThatCannotBeBuiltIsPassedOverAndNamedAsSkipped() async throws {
        let prober = ScriptedProber(steps: [ttft: [12]], unbuildable: [8])
        let outcome = try await Bisector(states: states(17)).run(prober)
        #expect(outcome.findings.first?.culprits.map(\.state) == [12])
        #expect(outcome.skipped.map(\.shortId) == ["c8"])
        #expect(outcome.skipped.first?.reason == "the build failed")
        // The skipped state was asked once, then passed over for its neighbour.
        #expect(await prober.asked.filter { $0.head == 8 || $0.base == 8 }.count == 0)
    }

    @Test func aStepNextToACommitThatCannotBeBuiltIsARangeNotAGuess() async throws {
        let prober = ScriptedProber(steps: [ttft: [9]], unbuildable: [8])
        let outcome = try await Bisector(states: states(17)).run(prober)
        let finding = try #require(outcome.findings.first)
        #expect(finding.culprits.isEmpty)
        let range = try #require(finding.undecided.first)
        #expect((range.after, range.through) == (7, 9))
        #expect(range.reading.detail == "c8 could not be measured (the build failed)")
    }

    @Test func anInterruptionKeepsWhatWasFound() async throws {
        let prober = ScriptedProber(steps: [ttft: [11]], stopAfter: 4)
        let outcome = try await Bisector(states: states(17)).run(prober)
        #expect(outcome.interrupted)
        #expect(outcome.exactEndpoints != nil && outcome.endpoints != nil)
        #expect(outcome.probes.count == 2)
        #expect(outcome.findings.first?.culprits.isEmpty == true)
    }

    @Test func endpointsThatDoNotDifferChaseNothing() async throws {
        let prober = ScriptedProber(steps: [:])
        let outcome = try await Bisector(states: states(9)).run(prober)
        #expect(outcome.findings.isEmpty)
        #expect(await prober.asked.count == 2, "the ends exactly, then in rounds")
    }

    /// "Nothing to chase" is not "alike": the ends' notes name the settings the commits differ
    /// in, what got better at the bad end, and the machine's load — the three reasons a bisection
    /// on a busy runner once printed "do not differ in anything" for threads 2 → 1 (one thread
    /// ran faster there). Ends alike on a quiet machine add no note.
    @Test func theEndsSayWhatNothingToChaseLeavesOut() {
        func side(threads: Int, level: Double, load: Double, seed: UInt64) -> RunRecord {
            var random = SeededRandom(seed: seed)
            var builder = RecordBuilder(threads: threads, sources: ["threads": .projectFile])
            for repetition in 1...10 {
                builder.replay(repetition: repetition, ttft: [level * (1 + 0.02 * random.normal())], load: load)
            }
            return builder.record
        }
        func notes(_ base: RunRecord, _ head: RunRecord) -> [String] {
            var settings = ComparisonSettings.default
            settings.busyThreshold = .infinity  // `busy_threshold: off`, as the real-model test's project sets
            return BisectReadings.endpointNotes(
                RunComparator.compare(
                    base: ComparedRuns(runs: [base], sources: []), head: ComparedRuns(runs: [head], sources: []), settings: settings))
        }
        let busy = notes(side(threads: 2, level: 0.3, load: 1.9, seed: 1), side(threads: 1, level: 0.2, load: 1.9, seed: 2))
        #expect(busy.count == 3, "\(busy)")
        #expect(busy.first == "the commits' settings differ: threads 2 → 1")
        #expect(busy.contains { $0.hasPrefix("better at the bad end: s: ") && $0.contains("ttft") }, "\(busy)")
        #expect(busy.last == "other processes used 1.90 cores on average during 20 replays", "\(busy)")
        let quiet = notes(side(threads: 2, level: 0.3, load: 0.02, seed: 1), side(threads: 2, level: 0.3, load: 0.02, seed: 3))
        #expect(quiet.isEmpty, "\(quiet)")
    }

    @Test func oneCommitBetweenTheEndsIsItsOwnCulprit() async throws {
        let prober = ScriptedProber(steps: [ttft: [1]])
        let outcome = try await Bisector(states: states(2)).run(prober)
        #expect(outcome.findings.first?.culprits.map(\.state) == [1])
        #expect(await prober.asked.count == 2, "the ends exactly, then in rounds")
    }

    @Test func theErrorRateIsSharedByEveryProbeABisectionCanTake() {
        // 64 intervals: ⌈log₂ 64⌉ = 6 probes a search, +1 confirmation, two culprits, +2 checks beside.
        let budget = BisectBudget(errorRate: 0.05, testedSignals: 2, intervals: 64, culpritsPerSignal: 2)
        #expect(budget.probesPerSignal == 16)
        #expect(budget.endpoints == 0.025)
        #expect(abs(budget.perProbe - 0.025 / 32) < 1e-15)
        // One interval: no search, the confirmation only.
        #expect(BisectBudget(errorRate: 0.05, testedSignals: 1, intervals: 1, culpritsPerSignal: 1).probesPerSignal == 1)
    }

    @Test func aProbeGatesOnlyItsSignalAndNeverBelowTheGatesThreshold() {
        let gate = ComparisonSettings.default
        let small = BisectReadings.settings(for: .paired(signal: ttft, threshold: 0.01, errorRate: 0.001), from: gate)
        #expect(small.thresholds.keys.sorted { $0.rawValue < $1.rawValue } == [.timeToFirstToken])
        #expect(small.thresholds[.timeToFirstToken]?.relative == gate.thresholds[.timeToFirstToken]?.relative)
        #expect(small.familyErrorRate == 0.001)
        #expect(small.confidence == 0.999)
        #expect(small.priority == [.timeToFirstToken])
        let large = BisectReadings.settings(for: .paired(signal: ttft, threshold: 0.08, errorRate: 0.001), from: gate)
        #expect(large.thresholds[.timeToFirstToken]?.relative == 0.08)
        let check = BisectSignal.passRate(place: .init(suite: "s", conversation: "c", turn: 1, position: 1, check: "contains"))
        #expect(BisectReadings.settings(for: .paired(signal: check, threshold: nil, errorRate: 0.001), from: gate).thresholds.isEmpty)
        #expect(BisectReadings.settings(for: .exact, from: gate) == gate)
    }
}
