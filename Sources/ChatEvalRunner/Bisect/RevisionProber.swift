import ChatEvalCompare
import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Measures a bisection's probes, each commit on its runtime (`RevisionRuntimes`: one shared
/// in-process engine, or a server built from the commit): an exact probe from each commit's
/// single greedy run (measured once, kept), a paired probe as `run --baseline` measures a pair —
/// interleaved, in rounds (`PairedRun`) at the probe's own settings. Every run is recorded in
/// the reports folder, and every finished probe in the journal, so that a bisection stopped by
/// `stop` resumes where it stopped (`BisectInterruption` is thrown; the probe in progress is
/// measured again).
public actor RevisionProber: BisectProber {
    private let revisions: [BisectRevision]
    private let runtimes: any RevisionRuntimes
    private let gate: ComparisonSettings
    private let design: SequentialDesign
    private let timeBudget: Double?
    /// When the bisection's time budget ends (seconds on `PairedRun.now`): no probe's rounds run past it.
    private let deadline: Double?
    private let machineLoad: MachineLoad
    private let folder: URL
    private let journalURL: URL
    private let stop: StopRequest
    private let observer: (any RunObserver)?
    private var journal: BisectJournal
    private var singleRuns: [Int: RunRecord] = [:]

    /// - `revisions`: by state index (the bisection's states, in order).
    /// - `gate`: the comparison settings the probes start from (`BisectReadings.settings`).
    /// - `design`: the rounds of a paired probe (its most repetitions per side).
    public init(
        revisions: [BisectRevision], runtimes: any RevisionRuntimes, gate: ComparisonSettings, design: SequentialDesign,
        timeBudget: Double?, deadline: Double? = nil,
        machineLoad: MachineLoad, folder: URL, journal: BisectJournal, journalURL: URL, stop: StopRequest,
        observer: (any RunObserver)? = nil
    ) {
        self.revisions = revisions
        self.runtimes = runtimes
        self.gate = gate
        self.design = design
        self.timeBudget = timeBudget
        self.deadline = deadline
        self.machineLoad = machineLoad
        self.folder = folder
        self.journal = journal
        self.journalURL = journalURL
        self.stop = stop
        self.observer = observer
    }

    public func probe(_ probe: BisectProbe) async throws -> BisectProbeResult {
        let key = BisectJournal.Key(base: revisions[probe.base].commit, head: revisions[probe.head].commit, kind: probe.kind)
        if var done = journal.result(for: key) {
            done.resumed = true
            return done
        }
        for state in [probe.base, probe.head] {
            if let reason = revisions[state].unmeasurable { throw BisectSkip(state: state, reason: reason, isLasting: true) }
            if let reason = journal.unmeasurable[revisions[state].commit] { throw BisectSkip(state: state, reason: reason) }
        }
        let result: BisectProbeResult
        do {
            switch probe.kind {
            case .exact: result = try await exact(probe)
            case .endpoints, .paired: result = try await paired(probe)
            }
        } catch let skip as BisectSkip {
            // Only what would fail again, and never an end (a bisection whose end fails is refused).
            if skip.isLasting, skip.state != 0, skip.state != revisions.count - 1 {
                journal.unmeasurable[revisions[skip.state].commit] = skip.reason
                try journal.save(to: journalURL)
            }
            throw skip
        }
        journal.probes.append(BisectJournal.Entry(key: key, result: result))
        try journal.save(to: journalURL)
        return result
    }

    /// The two commits' single greedy runs, their ledgers compared exactly.
    private func exact(_ probe: BisectProbe) async throws -> BisectProbeResult {
        let started = PairedRun.now()
        let (base, baseFile) = try await singleRun(probe.base)
        let (head, headFile) = try await singleRun(probe.head)
        let ledger = LedgerComparator.compare(base: [base], head: [head], gates: .default)
        var result = BisectProbeResult(
            readings: ledger.notGated == nil ? BisectReadings.exact(ledger) : [], repetitions: 1, seconds: PairedRun.now() - started,
            results: [baseFile, headFile])
        result.exactScope = ExactScope(ledger)
        return result
    }

    /// Whether a run a journal names may stand for `revision`'s single greedy run: complete, of
    /// its commit, of the same suites (names, files, conversations) and, once its engine is
    /// loaded, of the same model. A journal can be edited: a run that does not match is measured again.
    private func keptRun(_ record: RunRecord, matches revision: BisectRevision, state index: Int) async -> Bool {
        guard record.status == .complete, record.git?.commit == revision.commit || revision.git == nil else { return false }
        let kept = record.suites.map { [$0.name, $0.path] + $0.conversations.map(\.id) }
        let planned = revision.plan.suites.map { [$0.name, $0.path] + $0.conversations.map(\.id) }
        guard kept == planned else { return false }
        if let model = await runtimes.modelSha256(for: index), let recorded = record.modelSha256, model != recorded { return false }
        return true
    }

    /// State `index`'s single greedy run: from memory, from the journal's result file, or measured.
    private func singleRun(_ index: Int) async throws -> (RunRecord, String) {
        let revision = revisions[index]
        if let record = singleRuns[index], let file = journal.singleRuns[revision.commit] { return (record, file) }
        // A kept run is this commit's, complete, of its suites and model, or measured again.
        if let file = journal.singleRuns[revision.commit], let record = try? ResultFolder.read(URL(fileURLWithPath: file)),
            await keptRun(record, matches: revision, state: index)
        {
            singleRuns[index] = record
            return (record, file)
        }
        var plan = revision.plan
        plan.settings.repetitions = 1
        plan.settings.warmupConversations = 0
        let runtime = try await runtimes.runtime(for: index)
        let record = await records(for: runtime, state: index).record(plan: plan, git: revision.git, project: revision.project)
        let finished: RunRecord
        let writer: ResultWriter
        do {
            writer = try RunRecordMaker.writer(record, suites: plan.suites, folder: folder)
            finished = try await SuiteRunner(runtime: runtime, plan: plan).run(into: record, writer: writer, stop: stop, observer: observer)
            await runtimes.release(index)
        } catch {
            await runtimes.release(index)
            throw error
        }
        guard finished.status == .complete, !stop.isRequested, !Task.isCancelled else { throw BisectInterruption() }
        singleRuns[index] = finished
        journal.singleRuns[revision.commit] = writer.resultURL.path
        return (finished, writer.resultURL.path)
    }

    /// The two commits interleaved in rounds at the probe's settings: the endpoints on every
    /// suite, a signal's probe on its suite alone.
    private func paired(_ probe: BisectProbe) async throws -> BisectProbeResult {
        let signal: BisectSignal?
        if case .paired(let chased, _, _) = probe.kind { signal = chased } else { signal = nil }
        let baseRuntime = try await runtimes.runtime(for: probe.base)
        let headRuntime: any ChatRuntime
        do {
            headRuntime = try await runtimes.runtime(for: probe.head)
        } catch {
            await runtimes.release(probe.base)
            throw error
        }
        do {
            let result = try await paired(probe, signal: signal, base: baseRuntime, head: headRuntime)
            await runtimes.release(probe.base)
            await runtimes.release(probe.head)
            return result
        } catch {
            await runtimes.release(probe.base)
            await runtimes.release(probe.head)
            throw error
        }
    }

    /// The paired probe on runtimes already open.
    private func paired(_ probe: BisectProbe, signal: BisectSignal?, base baseRuntime: any ChatRuntime, head headRuntime: any ChatRuntime)
        async throws -> BisectProbeResult
    {
        let headPlan = revisions[probe.head].plan(only: signal?.suite)
        var basePlan = revisions[probe.base].plan(only: signal?.suite)
        basePlan.suites = PairedRun.aligned(base: basePlan.suites, toHead: headPlan.suites, selection: SuiteSelection())
        let baseRecords = await records(for: baseRuntime, state: probe.base)
        let headRecords = await records(for: headRuntime, state: probe.head)
        let pair = try BaselineGate(
            base: baseRecords.record(plan: basePlan, git: revisions[probe.base].git, project: revisions[probe.base].project),
            head: headRecords.record(plan: headPlan, git: revisions[probe.head].git, project: revisions[probe.head].project),
            baseSuites: basePlan.suites, headSuites: headPlan.suites, folder: folder)
        // No round past the bisection's own deadline: the probe takes its last look on what it measured.
        let left = deadline.map { max(1, $0 - PairedRun.now()) }
        let budget = [timeBudget, left].compactMap { $0 }.min()
        var probeThreshold: Double?
        if case .paired(_, let value, _) = probe.kind { probeThreshold = value }
        let threshold = probeThreshold
        var run = PairedRun(
            base: RunArm(label: "base", runtime: baseRuntime, plan: basePlan),
            head: RunArm(label: "head", runtime: headRuntime, plan: headPlan),
            design: design, timeBudget: budget, settings: BisectReadings.settings(for: probe.kind, from: self.gate))
        if case .passRate(let place)? = signal {
            // Rounds go on until the drop is shown or ruled out, not only until the test is settled.
            run.stillOpen = { comparison, records in
                comparison.quality.regressions.isEmpty
                    && BisectReadings.passRateEquivalence(
                        place, drop: threshold, errorRate: 1 - comparison.design.confidence, base: [records[0]], head: [records[1]]
                    ).side == .undecided
            }
        }
        let outcome = try await pair.run(run, stop: stop, observer: observer)
        guard let comparison = outcome.comparison, outcome.sequential.stop != .interrupted, !stop.isRequested else {
            throw BisectInterruption()
        }
        let readings =
            signal.map {
                [BisectReadings.paired($0, threshold: threshold, in: comparison, base: [outcome.base], head: [outcome.head])]
            } ?? BisectReadings.endpoints(comparison)
        var result = BisectProbeResult(
            readings: readings, repetitions: outcome.sequential.repetitions, seconds: outcome.sequential.seconds,
            results: pair.writers.map(\.resultURL.path))
        if signal == nil {
            let notes = BisectReadings.endpointNotes(comparison)
            result.notes = notes.isEmpty ? nil : notes
        }
        return result
    }

    /// How records of state `state`'s runs on `runtime` start: its identity, its model's digest
    /// (nil for a served runtime), the machine's load at the bisection's start.
    private func records(for runtime: any ChatRuntime, state: Int) async -> RunRecordMaker {
        RunRecordMaker(runtime: runtime.identity, modelSha256: await runtimes.modelSha256(for: state), machineLoad: machineLoad)
    }
}
