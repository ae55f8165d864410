import ChatEvalCore
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
        private(set) var asked: [BisectProbe] = []

        init(
            steps: [BisectSignal: [Int]], undecidedHeads: Set<Int> = [], sameAdjacent: Set<Int> = [], stopAfter: Int? = nil,
            unbuildable: Set<Int> = []
        ) {
            self.unbuildable = unbuildable
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
            asked.append(probe)
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
            return BisectProbeResult(readings: readings, repetitions: probe.kind == .exact ? 1 : 4, seconds: 1)
        }

        private func isEndpoints(_ probe: BisectProbe) -> Bool {
            if case .endpoints = probe.kind { true } else { false }
        }
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
        #expect(asked.dropFirst().allSatisfy { $0.kind == .exact })
        // Binary search over 16 intervals (4 probes) and the range after the culprit checked once;
        // an exact culprit is not confirmed again (the facts do not change).
        #expect(asked.count == 1 + 4 + 2)
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
        let prober = ScriptedProber(steps: [ttft: [11]], stopAfter: 3)
        let outcome = try await Bisector(states: states(17)).run(prober)
        #expect(outcome.interrupted)
        #expect(outcome.probes.count == 2)
        #expect(outcome.findings.first?.culprits.isEmpty == true)
    }

    @Test func endpointsThatDoNotDifferChaseNothing() async throws {
        let prober = ScriptedProber(steps: [:])
        let outcome = try await Bisector(states: states(9)).run(prober)
        #expect(outcome.findings.isEmpty)
        #expect(await prober.asked.count == 1)
    }

    @Test func oneCommitBetweenTheEndsIsItsOwnCulprit() async throws {
        let prober = ScriptedProber(steps: [ttft: [1]])
        let outcome = try await Bisector(states: states(2)).run(prober)
        #expect(outcome.findings.first?.culprits.map(\.state) == [1])
        #expect(await prober.asked.count == 1)
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
