import ChatEvalCompare
import ChatEvalCore
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Synchronization
import Testing

/// `run --baseline`'s paired run as a library: rounds until decided, alignment of the base's
/// suites, interleaving, the time budget, and repetitions measured again on a busy machine.
@Suite struct PairedRunTests {
    private func suite(_ name: String = "s", conversations: [String], turns: Int = 1) throws -> Suite {
        let yaml =
            "name: \(name)\nconversations:\n"
            + conversations.map { id in
                "  - id: \(id)\n    turns: [" + (1...turns).map { "\"turn \($0)\"" }.joined(separator: ", ") + "]\n"
            }.joined()
        return try SuiteLoader.parse(yaml, file: "\(name).yaml")
    }

    /// A runtime whose TTFT is `level` × `factor` with seeded 5% noise (decode constant, × `decodeFactor`).
    private func runtime(factor: Double, decodeFactor: Double = 1, seed: UInt64, onTurn: @escaping @Sendable () -> Void = {})
        -> ScriptedRuntime
    {
        let random = Mutex(SeededRandom(seed: seed))
        return ScriptedRuntime { messages, _ in
            onTurn()
            let noise = random.withLock { $0.normal() }
            let level = 0.1 + 0.01 * Double(messages.last?.content.count ?? 0 % 7)
            var metrics = ScriptedRuntime.metrics(prompt: 20, generated: 4)
            metrics.timeToFirstToken = level * factor * exp(0.05 * noise)
            metrics.prefillTime = metrics.timeToFirstToken * 0.9
            metrics.decodeTime *= decodeFactor
            metrics.totalTime = metrics.timeToFirstToken + metrics.decodeTime
            return .answer(["ok"], metrics)
        }
    }

    private struct Fixture {
        var base: RunRecord
        var head: RunRecord
        var writers: [ResultWriter]
        var folder: URL
    }

    private func fixture(_ baseRuntime: ScriptedRuntime, _ headRuntime: ScriptedRuntime, settings: RunSettings) throws -> Fixture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paired-\(UUID().uuidString)")
        func record(_ runtime: ScriptedRuntime, _ role: RunRole) -> RunRecord {
            var record = RunRecord(
                runId: ResultWriter.newRunId(), startedAt: Date(), command: ["test"], git: nil, machine: MachineInfo.current(),
                runtime: runtime.identity, modelSha256: nil, settings: settings)
            record.role = role
            return record
        }
        let base = record(baseRuntime, .baseline), head = record(headRuntime, .head)
        return Fixture(
            base: base, head: head,
            writers: [
                try ResultWriter(folder: folder, record: base, suites: []),
                try ResultWriter(folder: folder, record: head, suites: []),
            ], folder: folder)
    }

    private let quiet: SuiteRunner.LoadProbe = { { ReplayLoad(otherCores: 0.01, seconds: 0.1) } }

    private func settingsTTFTOnly() -> ComparisonSettings {
        var settings = ComparisonSettings.default
        settings.metrics = [.timeToFirstToken]
        return settings
    }

    @Test func identicalSidesStopOnceDecidedAndAreNotARegression() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: (1...8).map { "q\($0)" })],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        let base = runtime(factor: 1, seed: 1), head = runtime(factor: 1, seed: 2)
        let fixture = try fixture(base, head, settings: plan.settings)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let paired = PairedRun(
            base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
            design: .rounds(maximum: 30), settings: settingsTTFTOnly(), loadProbe: quiet)
        let outcome = try await paired.run(base: fixture.base, head: fixture.head, writers: fixture.writers, stop: StopRequest())
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
        let comparison = try #require(outcome.comparison)
        #expect(!comparison.hasRegression)
        #expect(outcome.sequential.stop == .decided)
        #expect(outcome.sequential.repetitions < 30)
        #expect(comparison.sequential?.repetitions == outcome.sequential.repetitions)
        #expect(outcome.base.settings.repetitions == outcome.sequential.repetitions)
        #expect(outcome.base.status == .complete && outcome.head.status == .complete)
        // One look line per round, the last one decided.
        #expect(outcome.sequential.looks.count == outcome.sequential.rounds && outcome.sequential.looks.last?.hasSuffix("decided") == true)
    }

    @Test func aSlowerHeadStopsAtTheConfirmedRegression() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: (1...8).map { "q\($0)" })],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        let base = runtime(factor: 1, seed: 3), head = runtime(factor: 1.3, seed: 4)
        let fixture = try fixture(base, head, settings: plan.settings)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let paired = PairedRun(
            base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
            design: .rounds(maximum: 30), settings: settingsTTFTOnly(), loadProbe: quiet)
        let outcome = try await paired.run(base: fixture.base, head: fixture.head, writers: fixture.writers, stop: StopRequest())
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
        let comparison = try #require(outcome.comparison)
        #expect(comparison.hasRegression)
        #expect(outcome.sequential.stop == .regression)
        #expect(outcome.sequential.repetitions <= 6)
        #expect(comparison.design.isSequential && comparison.design.look == outcome.sequential.rounds)
        // The look spent only its share: less than the whole rate.
        #expect(comparison.design.familyErrorRate < 0.01)
    }

    /// Total time doubles at once, TTFT does not change: the regression is confirmed at the first
    /// looks, while TTFT (the default priority) is still open. Before, the run stopped there with
    /// TTFT undecided; now it measures on until TTFT is decided, and the total-time regression
    /// confirmed early still fails the gate. With `priority: []` it stops at the first regression.
    @Test func aRegressionElsewhereDoesNotEndTheRunWhileTTFTIsOpen() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: (1...8).map { "q\($0)" })],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        func run(priority: [Metric]?) async throws -> PairedRun.Outcome {
            let base = runtime(factor: 1, seed: 21), head = runtime(factor: 1, decodeFactor: 3, seed: 22)
            let fixture = try fixture(base, head, settings: plan.settings)
            defer { try? FileManager.default.removeItem(at: fixture.folder) }
            var settings = ComparisonSettings.default
            settings.metrics = [.timeToFirstToken, .totalTime]
            settings.priority = priority
            let paired = PairedRun(
                base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
                design: .rounds(maximum: 30), settings: settings, loadProbe: quiet)
            let outcome = try await paired.run(base: fixture.base, head: fixture.head, writers: fixture.writers, stop: StopRequest())
            try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
            return outcome
        }
        let first = try await run(priority: [])
        let firstComparison = try #require(first.comparison)
        #expect(first.sequential.stop == .regression)
        #expect(firstComparison.metricRegressions.map(\.change.metric) == [.totalTime])
        #expect(firstComparison.underpowered.map(\.change.metric) == [.timeToFirstToken])

        let measuredOn = try await run(priority: nil)
        let comparison = try #require(measuredOn.comparison)
        #expect(measuredOn.sequential.repetitions > first.sequential.repetitions)
        #expect(comparison.hasRegression && measuredOn.sequential.stop == .regression)
        #expect(comparison.metricRegressions.map(\.change.metric) == [.totalTime])
        let ttft = try #require(comparison.suites.first?.metrics.first { $0.metric == .timeToFirstToken })
        #expect(ttft.verdict == .unchanged || ttft.verdict == .notWorse)
        #expect(measuredOn.sequential.looks.first?.contains("measuring on while ttft is open") == true)
    }

    /// Issue 48, item 2: the gate decides with the project's settings, the command line's
    /// overrides (a 50% TTFT threshold, no busy screen) and the head's `ChatEval-Expect` trailers
    /// (prefill slower on purpose); its two result files, compared again with no command line and
    /// no repository, decide the same — those are in the records now. Before, `compare` of the
    /// same files took the preset's settings and read no trailers: 30% slower TTFT and prefill
    /// were regressions there, where the gate passed.
    @Test func compareOfTheGatesFilesDecidesWithTheGatesSettings() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: (1...8).map { "q\($0)" })],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        let base = runtime(factor: 1, seed: 31), head = runtime(factor: 1.3, seed: 32)
        let fixture = try fixture(base, head, settings: plan.settings)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        var settings = ComparisonSettings.default
        settings.metrics = [.timeToFirstToken, .prefillTokensPerSecond]
        var paired = PairedRun(
            base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
            design: .fixed(6), settings: settings,
            overrides: ComparisonOverrides(thresholds: [.timeToFirstToken: ThresholdOverride(relative: 0.5)], busyThreshold: .infinity),
            loadProbe: quiet)
        paired.expectations = [Expectation(commit: "abc1234", suite: "s", subject: "prefill-tps", direction: .worse)]
        let outcome = try await paired.run(base: fixture.base, head: fixture.head, writers: fixture.writers, stop: StopRequest())
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
        let gate = try #require(outcome.comparison)
        #expect(!gate.hasRegression)
        #expect(gate.acceptedMetrics.map(\.change.metric) == [.prefillTokensPerSecond])
        #expect(gate.settings.busyThreshold == nil && gate.settings.thresholds[.timeToFirstToken]?.relative == 0.5)
        let again = try #require(
            RunComparator.comparePairedAgain(
                base: try ResultFolder.read(fixture.writers[0].resultURL), head: try ResultFolder.read(fixture.writers[1].resultURL)))
        #expect(!again.hasRegression && again.acceptedMetrics.count == 1)
        #expect(again.suites[0].metrics.map(\.metric) == [.timeToFirstToken, .prefillTokensPerSecond])
        // A reader may still ask for other settings: its command line goes over the gate's.
        let stricter = try #require(
            RunComparator.comparePairedAgain(
                base: try ResultFolder.read(fixture.writers[0].resultURL), head: try ResultFolder.read(fixture.writers[1].resultURL),
                commandLine: ComparisonOverrides(thresholds: [.timeToFirstToken: ThresholdOverride(relative: 0.05)])))
        #expect(stricter.metricRegressions.map(\.change.metric) == [.timeToFirstToken])
    }

    @Test func theArmsAlternateWhichGoesFirst() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: ["a", "b"])],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        let base = runtime(factor: 1, seed: 5), head = runtime(factor: 1, seed: 6)
        let fixture = try fixture(base, head, settings: plan.settings)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let order = OrderRecorder()
        let paired = PairedRun(
            base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
            design: .fixed(2), settings: settingsTTFTOnly(), loadProbe: quiet)
        let outcome = try await paired.run(
            base: fixture.base, head: fixture.head, writers: fixture.writers, stop: StopRequest(), observer: order)
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
        // Repetition 1: a (head first), b (base first); repetition 2: a (base first), b (head first).
        #expect(await order.started == ["head a 1", "base a 1", "base b 1", "head b 1", "base a 2", "head a 2", "head b 2", "base b 2"])
    }

    @Test func aBaseWithOtherSuitesIsAlignedToTheHeadsSelection() throws {
        let head = [try suite("s", conversations: ["a", "c"])]
        let base = [try suite("s", conversations: ["a", "b", "c"]), try suite("other", conversations: ["x"])]
        let picked = SuiteSelection(patterns: ["s/*"], tags: [], conversationsByPath: [:])
        let aligned = PairedRun.aligned(base: base, toHead: head, selection: picked)
        #expect(aligned.map(\.name) == ["s"])
        #expect(aligned[0].conversations.map(\.id) == ["a", "c"])
        // Without a selection the base runs its own suites whole (the commit's change is the point).
        #expect(
            PairedRun.aligned(base: base, toHead: head, selection: SuiteSelection(patterns: [], tags: [], conversationsByPath: [:])).count
                == 2)
    }

    @Test func aRepetitionDisturbedByOtherProcessesIsMeasuredAgainAndLeftOut() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: ["a", "b"])],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        let base = runtime(factor: 1, seed: 7), head = runtime(factor: 1, seed: 8)
        let fixture = try fixture(base, head, settings: plan.settings)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        // The third replay measured (conversation b's first, of repetition 1) ran beside a compile.
        let calls = Mutex(0)
        let probe: SuiteRunner.LoadProbe = {
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            return { ReplayLoad(otherCores: call == 3 ? 1.7 : 0.01, seconds: 0.1) }
        }
        let paired = PairedRun(
            base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
            design: .fixed(3), settings: settingsTTFTOnly(), loadProbe: probe)
        let outcome = try await paired.run(base: fixture.base, head: fixture.head, writers: fixture.writers, stop: StopRequest())
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
        for record in [outcome.base, outcome.head] {
            let replays = record.suites[0].conversations.filter { $0.id == "b" && $0.repetition == 1 }
            #expect(replays.count == 2)  // the disturbed one, kept and marked, and the new one
            #expect(replays.filter { $0.leftOut != nil }.count == 1)
            #expect(replays.first?.leftOut?.contains("1.70 cores") == true)
            #expect(record.suites[0].conversations.filter(\.isMeasured).count == 6)
        }
        let comparison = try #require(outcome.comparison)
        #expect(comparison.load.base.remeasured == 1 && comparison.load.head.remeasured == 1)
        #expect(comparison.suites[0].metrics[0].baseCount == 6)
    }

    @Test func aRepetitionStillDisturbedAfterItsRetriesIsLeftOut() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: ["a"])], settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        let base = runtime(factor: 1, seed: 9), head = runtime(factor: 1, seed: 10)
        let fixture = try fixture(base, head, settings: plan.settings)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        // One arm of every pair beside a compile, the other quiet: disturbed unequally, every time.
        let busy = alternatingLoad(busy: 1.2, quiet: 0.01, seconds: 0.1)
        let paired = PairedRun(
            base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
            design: .fixed(2), busyRetries: 1, settings: settingsTTFTOnly(), loadProbe: busy)
        let outcome = try await paired.run(base: fixture.base, head: fixture.head, writers: fixture.writers, stop: StopRequest())
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
        // Each repetition measured twice (one retry), all four replays of each side left out.
        #expect(outcome.head.suites[0].conversations.count == 4)
        #expect(outcome.head.suites[0].conversations.allSatisfy { $0.leftOut != nil })
        #expect(outcome.head.suites[0].conversations.last?.leftOut?.contains("left out") == true)
        #expect(outcome.head.suites[0].conversations.first?.leftOut?.contains("measured again") == true)
        let comparison = try #require(outcome.comparison)
        #expect(comparison.suites[0].metrics[0].verdict == .notMeasured)
        #expect(!comparison.hasRegression)
    }

    /// Issue 29, item 8: one core of two held by a steady busy loop through the whole run. Both
    /// arms of every pair ran beside it: noise the pairing cancels, kept and compared — before,
    /// every replay was left out and the run measured nothing (exit 4).
    @Test func aSteadyLoadBothArmsSawIsKeptAndCompared() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: ["a", "b"])],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        let base = runtime(factor: 1, seed: 13), head = runtime(factor: 1, seed: 14)
        let fixture = try fixture(base, head, settings: plan.settings)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let steady: SuiteRunner.LoadProbe = { { ReplayLoad(otherCores: 1.0, seconds: 0.1) } }
        let paired = PairedRun(
            base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
            design: .fixed(3), busyRetries: 2, settings: settingsTTFTOnly(), loadProbe: steady)
        let outcome = try await paired.run(base: fixture.base, head: fixture.head, writers: fixture.writers, stop: StopRequest())
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
        #expect(outcome.head.suites[0].conversations.count == 6)
        #expect(outcome.head.suites[0].conversations.allSatisfy { $0.leftOut == nil })
        let comparison = try #require(outcome.comparison)
        #expect(!comparison.measuredNothing)
        #expect(comparison.suites[0].metrics[0].baseCount == 6)
        #expect(comparison.load.base.leftOut == 0 && comparison.load.head.leftOut == 0)
    }

    @Test func theTimeBudgetEndsTheRunWithTheRestOfTheRate() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: (1...8).map { "q\($0)" })],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        let base = runtime(factor: 1, seed: 11), head = runtime(factor: 1.02, seed: 12)
        let fixture = try fixture(base, head, settings: plan.settings)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        // A clock where every reading is 10 s after the one before: a 25 s budget allows a look or two.
        let ticks = Mutex(0.0)
        let clock: @Sendable () -> Double = {
            ticks.withLock {
                $0 += 10
                return $0
            }
        }
        let design = SequentialDesign.rounds(maximum: 30)
        let paired = PairedRun(
            base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
            design: design, timeBudget: 25, settings: settingsTTFTOnly(), loadProbe: quiet)
        let outcome = try await paired.run(
            base: fixture.base, head: fixture.head, writers: fixture.writers, stop: StopRequest(), clock: clock)
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
        #expect(outcome.sequential.stop == .timeBudget || outcome.sequential.stop == .decided)
        if outcome.sequential.stop == .timeBudget {
            let comparison = try #require(outcome.comparison)
            // Everything not spent before is spent on the last look.
            let spentBefore = design.spent(through: comparison.design.look - 2)
            #expect(abs(comparison.design.share - (1 - spentBefore)) < 1e-12)
            #expect(outcome.sequential.looks.last?.contains("time budget") == true)
        }
        #expect(outcome.sequential.repetitions < 30)
    }

    /// The first round alone may outlast the budget (a compile beside it made every replay 30×
    /// slower): the round stops there, nothing is measured again, and the last look spends the rest.
    @Test func aBudgetRunningOutWithinARoundStopsThereAndMeasuresNothingAgain() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: (1...8).map { "q\($0)" })],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        // Time passes only while a turn is answered: 1 s a turn.
        let now = Mutex(0.0)
        let base = runtime(factor: 1, seed: 15) { now.withLock { $0 += 1 } }
        let head = runtime(factor: 1, seed: 16) { now.withLock { $0 += 1 } }
        let fixture = try fixture(base, head, settings: plan.settings)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        // One arm of every pair beside a compile, the other quiet: disturbed unequally.
        let busy = alternatingLoad(busy: 1.0, quiet: 0.0, seconds: 1)
        let paired = PairedRun(
            base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
            design: .rounds(maximum: 30), timeBudget: 7, busyRetries: 2, settings: settingsTTFTOnly(), loadProbe: busy)
        let outcome = try await paired.run(
            base: fixture.base, head: fixture.head, writers: fixture.writers, stop: StopRequest(),
            clock: { now.withLock { $0 } })
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
        #expect(outcome.sequential.stop == .timeBudget)
        #expect(outcome.sequential.rounds == 1)
        // Slots of two replays: 1 s each, measured again while time was left; none started at or past 7 s.
        let replays = outcome.head.suites[0].conversations.count
        #expect(replays >= 1 && replays <= 4, "\(replays) replays")
        #expect(now.withLock { $0 } <= 8)
        #expect(outcome.head.suites[0].conversations.last?.leftOut?.contains("measured again") == false)
        let comparison = try #require(outcome.comparison)
        #expect(comparison.design.share == 1)  // the only look: everything
        #expect(outcome.sequential.looks.last?.contains("ran out within the round") == true)
        #expect(comparison.measuredNothing)  // every replay was disturbed
    }

    @Test func aStoppedRunIsIncompleteAndNotCompared() async throws {
        let plan = RunPlan(
            suites: [try suite(conversations: ["a", "b"])],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        let base = runtime(factor: 1, seed: 13), head = runtime(factor: 1, seed: 14)
        let fixture = try fixture(base, head, settings: plan.settings)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let stop = StopRequest()
        stop.request()
        let paired = PairedRun(
            base: RunArm(label: "base", runtime: base, plan: plan), head: RunArm(label: "head", runtime: head, plan: plan),
            design: .rounds(maximum: 10), settings: settingsTTFTOnly(), loadProbe: quiet)
        let outcome = try await paired.run(base: fixture.base, head: fixture.head, writers: fixture.writers, stop: stop)
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: fixture.writers)
        #expect(outcome.comparison == nil)
        #expect(outcome.sequential.stop == .interrupted)
        #expect(outcome.head.status == .incomplete)
    }

    /// A load probe whose odd calls (one arm of each pair) read `busy` cores, even ones `quiet`.
    private func alternatingLoad(busy: Double, quiet: Double, seconds: Double) -> SuiteRunner.LoadProbe {
        let calls = Mutex(0)
        return {
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            return { ReplayLoad(otherCores: call % 2 == 1 ? busy : quiet, seconds: seconds) }
        }
    }
}

/// Records the order replays start in.
private actor OrderRecorder: RunObserver {
    private(set) var started: [String] = []
    func conversationStarted(_ replay: ScheduledReplay, index: Int, of total: Int) {
        started.append("\(replay.arm ?? "-") \(replay.conversation) \(replay.repetition)")
    }
    func turnFinished(_ turn: ReplayedTurn, conversation: String) {}

}
