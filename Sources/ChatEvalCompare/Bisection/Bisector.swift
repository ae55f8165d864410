import Foundation

/// Finds the commit where each difference between a good and a bad commit appeared.
///
/// Pinpoint's method, on one machine, exact facts first: the ends are replayed once each,
/// greedily, and every exact difference (a turn's work ledger, a check on exact answers) is
/// chased at once, one replay a probe — on a machine too busy to time, these culprits are named
/// all the same. Then the ends are compared in rounds for everything timed (every signal that
/// differs is chased; one the ends cannot decide is named and not chased). Each signal is
/// then bisected over the states: the midpoint of the range is compared with the range's good
/// end — `.changed` moves the bad end there, `.same` the good end — until the range is one
/// commit wide. A metric is compared against half the change the endpoints showed (Pinpoint's
/// "fraction of the expected effect"), so that "same" and "changed" are both decidable; a probe
/// that decides neither ends that signal's search with the range it narrowed to.
///
/// Every culprit, exact or tested, is confirmed against the state just before it (unless the
/// probe that found it was that one). After a culprit is found, the two ranges beside it are
/// compared end to end: a change there is a second step, bisected the same way (at most
/// `culpritsPerSignal` culprits). Every probe of a tested signal spends `BisectBudget.perProbe`
/// of the error rate. A probe that cannot compare a signal (a sampled turn, another arithmetic, a
/// commit that cannot be measured) reads it undecided, never "same".
///
/// What it assumes: each signal steps at most `culpritsPerSignal` times in the range, and a step
/// is not undone inside it. A change reverted inside the range is invisible when the revert is
/// whole (the endpoints do not differ) and is otherwise chased as the part that remains; the
/// checks beside each culprit find a second step, and a step and its revert between two probed
/// states can be missed — the confidence covers the culprits named, under this assumption.
public struct Bisector: Sendable {
    public var states: [BisectState]
    public var skipped: [SkippedCommit]
    /// The chance that any culprit named is wrong, over the whole bisection.
    public var errorRate: Double
    public var culpritsPerSignal: Int
    /// When no new probe may start (seconds on `clock`); nil for no limit. Past it, what is known
    /// is reported: a signal still open is undecided ("the time budget ran out"), named in
    /// `BisectOutcome.outOfTime`.
    public var deadline: Double?
    /// The clock `deadline` is read on (monotonic seconds).
    public var clock: @Sendable () -> Double

    /// States known from the start to be unmeasurable (their settings or suites do not load), and
    /// why: never probed, listed as skipped, a step beside them named as a range.
    public var unmeasurable: [Int: String]

    public init(
        states: [BisectState], skipped: [SkippedCommit] = [], unmeasurable: [Int: String] = [:], errorRate: Double = 0.05,
        culpritsPerSignal: Int = 2, deadline: Double? = nil, clock: @escaping @Sendable () -> Double = Bisector.monotonicSeconds
    ) {
        self.states = states
        self.skipped = skipped
        self.unmeasurable = unmeasurable
        self.errorRate = errorRate
        self.culpritsPerSignal = max(1, culpritsPerSignal)
        self.deadline = deadline
        self.clock = clock
    }

    /// Seconds on the monotonic clock.
    public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Thrown by a search past its deadline before a probe starts.
    struct OutOfTime: Error {}

    /// Runs the bisection with `prober`; `progress` hears a line per probe. An interruption
    /// (`BisectInterruption`) ends it with what was found so far (`interrupted`); any other
    /// error of the prober is thrown.
    public func run(_ prober: some BisectProber, progress: @escaping @Sendable (String) async -> Void = { _ in }) async throws
        -> BisectOutcome
    {
        var search = Search(bisector: self, prober: prober, progress: progress)
        do {
            try await search.run()
        } catch is BisectInterruption {
            search.outcome.interrupted = true
        }
        return search.outcome
    }

    /// The state of one bisection as it runs.
    private struct Search<Prober: BisectProber> {
        let bisector: Bisector
        let prober: Prober
        let progress: @Sendable (String) async -> Void
        var outcome: BisectOutcome
        var budget: BisectBudget
        /// Probes already measured, asked again by another signal's chase.
        var known: [BisectProbe: BisectProbeResult] = [:]
        /// States that cannot be measured (their build failed), and why.
        var unmeasurable: [Int: String] = [:]
        /// When the search started, the seconds its fresh probes took, and about how many more it
        /// may take (for the progress lines' estimate of what is left).
        let started: Double
        var probeSeconds: [Double] = []
        var probesLeft = 0

        init(bisector: Bisector, prober: Prober, progress: @escaping @Sendable (String) async -> Void) {
            self.bisector = bisector
            self.prober = prober
            self.progress = progress
            outcome = BisectOutcome(states: bisector.states, skipped: bisector.skipped)
            started = bisector.clock()
            for (state, reason) in bisector.unmeasurable.sorted(by: { $0.key < $1.key })
            where state > 0 && state < bisector.states.count - 1 {
                unmeasurable[state] = reason
                let commit = bisector.states[state]
                outcome.skipped.append(SkippedCommit(shortId: commit.shortId, subject: commit.subject, reason: reason))
                outcome.skipped += commit.folded.map { SkippedCommit(shortId: $0.shortId, subject: $0.subject, reason: reason) }
            }
            budget = BisectBudget(
                errorRate: bisector.errorRate, testedSignals: 0, intervals: bisector.states.count - 1,
                culpritsPerSignal: bisector.culpritsPerSignal)
        }

        var last: Int { bisector.states.count - 1 }

        /// The exact signals first — one greedy replay of each end, compared exactly, and every
        /// exact difference chased at once, one replay a probe: they need no quiet machine — then
        /// the ends compared in rounds for everything timed, and each timed signal chased.
        mutating func run() async throws {
            guard last >= 1 else { return }
            outcome.budget = budget
            let exactEnds = BisectProbe(base: 0, head: last, kind: .exact)
            let exact = try await measure(exactEnds, asking: "the ends, exactly: one greedy replay each")
            outcome.exactEndpoints = BisectProbeLog(probe: exactEnds, result: exact)
            let facts = exact.readings.filter { $0.side == .changed && $0.signal.isExact }.sorted { $0.signal < $1.signal }
            await progress(
                "exact     \(bisector.states[last].shortId) against \(bisector.states[0].shortId): \(facts.count) exact signal(s) differ"
                    + (exact.exactScope?.notGated.map { " (not gated: \($0))" } ?? ""))
            probesLeft = facts.count * searchLength(last)
            for reading in facts { try await chaseAll(reading) }

            let endpoints = BisectProbe(base: 0, head: last, kind: .endpoints(errorRate: budget.endpoints))
            let result: BisectProbeResult
            do {
                result = try await measure(endpoints, asking: "the ends in rounds: every signal")
            } catch is OutOfTime {
                outcome.timingNotMeasured = "the time budget ran out before the ends' timings were compared"
                await progress("time      the budget ran out: the ends' timings were not compared")
                return
            }
            outcome.endpoints = BisectProbeLog(probe: endpoints, result: result)
            // Exact signals were chased from the exact replays above.
            let chased = result.readings.filter { $0.side == .changed && !$0.signal.isExact }.sorted { $0.signal < $1.signal }
            outcome.undecidedAtEndpoints = result.readings.filter { $0.side == .undecided }
            await progress(
                "endpoints: \(bisector.states[last].shortId) against \(bisector.states[0].shortId): "
                    + "\(chased.count) timed signal(s) differ, \(outcome.undecidedAtEndpoints.count) undecided; "
                    + "\(result.repetitions) repetition(s)"
                    + (result.resumed ? ", from the earlier bisection" : "")
                    + result.notesInParentheses)
            budget.testedSignals = chased.count
            outcome.budget = budget
            probesLeft = chased.count * searchLength(last)
            for reading in chased { try await chaseAll(reading) }
        }

        /// About how many probes one signal's search over `intervals` takes: the binary search,
        /// the confirmation, the two checks beside the culprit.
        func searchLength(_ intervals: Int) -> Int { Int(ceil(log2(Double(max(intervals, 1))))) + 3 }

        /// Chases `reading`'s signal over the whole range, its finding kept whatever happens; out
        /// of time, the signal is left undecided and named.
        mutating func chaseAll(_ reading: SignalReading) async throws {
            var finding = SignalFinding(signal: reading.signal, endpoints: reading)
            defer { outcome.findings.append(finding) }
            do {
                try await chase(reading.signal, after: 0, through: last, evidence: reading, comparedWith: 0, into: &finding)
            } catch is OutOfTime {
                outcome.outOfTime = (outcome.outOfTime ?? []) + [reading.signal]
                finding.notes.append("the time budget ran out before this signal's search ended: what it found so far is above")
                if finding.culprits.isEmpty {
                    finding.undecided.append(
                        UndecidedRange(
                            after: 0, through: last, probed: last,
                            reading: SignalReading(signal: reading.signal, side: .undecided, detail: "the time budget ran out")))
                }
                await progress("time      the budget ran out while chasing \(reading.signal)")
            }
        }

        /// Bisects `signal` over the states after `after` through `through`, where `through` is
        /// known changed relative to `after` (`evidence`, measured against `comparedWith`), then
        /// checks the ranges beside the culprit for a further step.
        mutating func chase(
            _ signal: BisectSignal, after: Int, through: Int, evidence: SignalReading, comparedWith: Int, into finding: inout SignalFinding
        ) async throws {
            var (good, bad, evidence, against) = (after, through, evidence, comparedWith)
            // The state nearest the middle of the range that can be measured (a commit whose build
            // failed is passed over, as `git bisect skip` does).
            while let middle = measurable(after: good, before: bad).min(by: { abs($0 - (good + bad) / 2) < abs($1 - (good + bad) / 2) }) {
                let reading: SignalReading
                do {
                    reading = try await probe(signal, base: good, head: middle, endpoints: finding.endpoints)
                } catch let skip as BisectSkip {
                    // The middle cannot be measured: another one is taken. The good end itself
                    // failing (a server that did not answer this time): the range is named, not guessed.
                    if skip.state == middle { continue }
                    finding.undecided.append(
                        UndecidedRange(after: good, through: bad, probed: middle, reading: skipped(skip, signal: signal)))
                    return
                }
                switch reading.side {
                case .changed: (bad, evidence, against) = (middle, reading, good)
                case .same: good = middle
                case .undecided:
                    finding.undecided.append(UndecidedRange(after: good, through: bad, probed: middle, reading: reading))
                    return
                }
            }
            if bad - good > 1 {
                let names = (good + 1..<bad).map { bisector.states[$0].shortId }.joined(separator: ", ")
                let reasons = Set((good + 1..<bad).compactMap { unmeasurable[$0] }).sorted().joined(separator: "; ")
                finding.undecided.append(
                    UndecidedRange(
                        after: good, through: bad, probed: good + 1,
                        reading: SignalReading(signal: signal, side: .undecided, detail: "\(names) could not be measured (\(reasons))")))
                return
            }
            // Every culprit is confirmed against the state just before it, unless the probe that
            // showed it was that one — an exact one too, since a probe's "same" may rest on fewer
            // turns than the endpoints compared: naming a wrong commit then takes two wrong probes,
            // and the change reported is the culprit's own.
            if against != good {
                let reading: SignalReading
                do {
                    reading = try await probe(signal, base: good, head: bad, endpoints: finding.endpoints)
                } catch let skip as BisectSkip {
                    reading = skipped(skip, signal: signal)
                }
                guard reading.side == .changed else {
                    finding.undecided.append(UndecidedRange(after: good, through: bad, probed: bad, reading: reading))
                    finding.notes.append(
                        "\(bisector.states[bad].shortId) changed against \(bisector.states[against].shortId) but not against "
                            + "\(bisector.states[good].shortId), the state before it (\(reading.side.rawValue)): not named")
                    return
                }
                (evidence, against) = (reading, good)
            }
            finding.culprits.append(BisectCulprit(state: bad, comparedWith: against, reading: evidence))
            let culprit = bisector.states[bad]
            await progress("culprit   \(signal): \(culprit.shortId) \"\(culprit.subject)\" — \(evidence.detail)")
            guard finding.culprits.count < bisector.culpritsPerSignal else { return }
            // Beside the culprit: the rest of the range after it, then before it.
            if bad < through {
                let reading = try await probeOrSkip(signal, base: bad, head: through, endpoints: finding.endpoints)
                if try await besideCulprit(signal, reading, after: bad, through: through, into: &finding) { return }
            }
            if good > after {
                let reading = try await probeOrSkip(signal, base: after, head: good, endpoints: finding.endpoints)
                _ = try await besideCulprit(signal, reading, after: after, through: good, into: &finding)
            }
        }

        /// `probe`, with a state that cannot be measured read as undecided (named), never thrown
        /// on: outside the search loop a skip ends that question, not the bisection.
        mutating func probeOrSkip(_ signal: BisectSignal, base: Int, head: Int, endpoints: SignalReading) async throws -> SignalReading {
            do {
                return try await probe(signal, base: base, head: head, endpoints: endpoints)
            } catch let skip as BisectSkip {
                return skipped(skip, signal: signal)
            }
        }

        /// A skip as a reading: undecided, naming the state and why.
        func skipped(_ skip: BisectSkip, signal: BisectSignal) -> SignalReading {
            SignalReading(
                signal: signal, side: .undecided,
                detail: "\(bisector.states[skip.state].shortId) could not be measured (\(skip.reason))")
        }

        /// The states after `after` and before `before` not known to be unmeasurable.
        func measurable(after: Int, before: Int) -> [Int] {
            guard before - after > 1 else { return [] }
            return (after + 1..<before).filter { unmeasurable[$0] == nil }
        }

        /// Acts on the comparison of a range beside a culprit; true when it held a second step.
        mutating func besideCulprit(
            _ signal: BisectSignal, _ reading: SignalReading, after: Int, through: Int, into finding: inout SignalFinding
        ) async throws -> Bool {
            let range = "\(bisector.states[after].shortId)..\(bisector.states[through].shortId)"
            switch reading.side {
            case .same:
                finding.notes.append("no further step in \(range) (\(reading.detail))")
                return false
            case .undecided:
                finding.notes.append("whether \(range) holds a further step is undecided (\(reading.detail))")
                return false
            case .changed:
                try await chase(signal, after: after, through: through, evidence: reading, comparedWith: after, into: &finding)
                return true
            }
        }

        /// The reading of `signal` comparing `head` with `base`.
        mutating func probe(_ signal: BisectSignal, base: Int, head: Int, endpoints: SignalReading) async throws -> SignalReading {
            let kind: BisectProbe.Kind
            if signal.isExact {
                kind = .exact
            } else {
                // Half the endpoints' change, but no more than its interval's near end (the end
                // nearer no change: the lower for a metric where smaller is better, the upper for
                // one where bigger is): a run that stopped at its first significant look
                // overstates the change it stopped on. A pass rate: half the endpoints' drop.
                var threshold: Double?
                switch signal {
                case .metric(_, let metric):
                    if let change = endpoints.change {
                        let nearEnd = metric.polarity == .smallerIsBetter ? endpoints.lower : endpoints.upper
                        threshold = min(abs(change) / 2, nearEnd.map { abs($0) } ?? abs(change))
                    }
                case .passRate:
                    threshold = endpoints.change.map { abs($0) / 2 }
                case .ledger, .exactCheck:
                    break
                }
                kind = .paired(signal: signal, threshold: threshold, errorRate: budget.perProbe)
            }
            let probe = BisectProbe(base: base, head: head, kind: kind)
            let fresh = known[probe] == nil
            let result = try await measure(probe, asking: "\(signal)")
            if fresh { outcome.probes.append(BisectProbeLog(probe: probe, result: result)) }
            let reading = result.reading(of: signal)
            await progress(
                (fresh ? "probe \(outcome.probes.count): " : "again:   ")
                    + "\(bisector.states[head].shortId) against \(bisector.states[base].shortId), "
                    + "\(signal): \(reading.side.rawValue) (\(reading.detail)); \(result.repetitions) repetition(s)"
                    + (result.resumed ? ", from the earlier bisection" : fresh ? "; " + timing() : ", measured already"))
            return reading
        }

        /// "12 s; 2m 05s in, about 3m 40s left (11 probes)": the last probe's time, the time
        /// since the start, and the mean probe time times the probes the searches may still take.
        func timing() -> String {
            let elapsed = bisector.clock() - started
            var text = "\(Self.seconds(probeSeconds.last ?? 0)); \(Self.seconds(elapsed)) in"
            if probesLeft > 0, !probeSeconds.isEmpty {
                let mean = probeSeconds.reduce(0, +) / Double(probeSeconds.count)
                text += ", about \(Self.seconds(mean * Double(probesLeft))) left (at most \(probesLeft) probe(s))"
            }
            return text
        }

        /// "45 s", "3m 05s", "1h 02m".
        static func seconds(_ value: Double) -> String {
            let total = Int(value.rounded())
            if total < 60 { return "\(total) s" }
            if total < 3600 { return String(format: "%dm %02ds", total / 60, total % 60) }
            return String(format: "%dh %02dm", total / 3600, total % 3600 / 60)
        }

        /// `probe` measured, or the result of the same probe asked before. A fresh probe is said
        /// as it starts (`asking`: its question), and none starts past the deadline (`OutOfTime`).
        mutating func measure(_ probe: BisectProbe, asking question: String) async throws -> BisectProbeResult {
            if let result = known[probe] { return result }
            if let deadline = bisector.deadline, bisector.clock() >= deadline { throw OutOfTime() }
            await progress(
                "start     \(bisector.states[probe.head].shortId) against \(bisector.states[probe.base].shortId): \(question)")
            let result: BisectProbeResult
            let began = bisector.clock()
            do {
                result = try await prober.probe(probe)
                if !result.resumed { probeSeconds.append(bisector.clock() - began) }
                probesLeft = max(0, probesLeft - 1)
            } catch let skip as BisectSkip {
                guard skip.state != 0, skip.state != last else { throw skip }
                if unmeasurable[skip.state] == nil {
                    unmeasurable[skip.state] = skip.reason
                    let state = bisector.states[skip.state]
                    outcome.skipped.append(SkippedCommit(shortId: state.shortId, subject: state.subject, reason: skip.reason))
                    outcome.skipped += state.folded.map { SkippedCommit(shortId: $0.shortId, subject: $0.subject, reason: skip.reason) }
                    await progress("skipped: \(state.shortId) — \(skip.reason)")
                }
                throw skip
            }
            known[probe] = result
            return result
        }
    }
}
