import ChatEvalCore
import Foundation

/// The comparison of a base and a head: plain data (documented by
/// `reports/schema/comparison.schema.json`); the command line alone turns it into an exit code.
public struct Comparison: Codable, Sendable {
    /// 2: replays as the unit of comparison, pass counts tested, the design and load of the sides.
    public static let currentSchemaVersion = 2

    public var schemaVersion: Int
    public var base: ComparedSide
    public var head: ComparedSide
    /// The settings the verdicts were decided with.
    public var settings: ComparisonSettings
    /// Which look of which design decided: the share of the error rates it spent.
    public var design: ComparisonDesign
    /// The family of tests decided together at the look's false-alarm rate.
    public var family: TestFamily
    /// Where base and head were not measured alike.
    public var differences: [SettingDifference]
    /// What the suites sent differently (system prompts, user messages, options, checks): the
    /// inputs the commits changed, next to what moved. Absent in comparisons written before it.
    public var inputs: [InputDifference]?
    public var suites: [SuiteComparison]
    public var quality: QualityComparison
    /// How busy the machine was while each side was measured, and what was left out for it.
    public var load: LoadComparison
    /// What `chateval calibrate` measured of the gate on this machine and model, when it has.
    public var calibration: GateAudit?
    /// Set by a paired run that added repetitions in rounds: how many, and why it stopped.
    public var sequential: SequentialOutcome?
    /// For separately recorded runs: the run-to-run spread their changes had to pass, and where
    /// it came from. Absent for a paired run (and in comparisons written before it).
    public var runSpread: RunToRunSpread?
    /// The turns' work ledgers compared exactly (`LedgerComparator`); absent in comparisons written before it.
    public var ledger: LedgerComparison?
    /// The head's commits' `ChatEval-Expect` trailers, each marked observed or not (`accept`).
    public var expectations: [Expectation]?
    /// A paired run's head: its own suite gates that failed ("smoke: ttft p95 ≤ 2, found 2.4 over
    /// 9 turns"). They fail the job beside any regression, so the verdict line names them. Absent
    /// when every gate passed, and for comparisons of recorded runs (which do not gate on them).
    public var headGatesFailed: [String]?
    /// True when the job fails a comparison that is not decided (`--undecided fail`), so the
    /// verdict line says the job fails on it; absent otherwise.
    public var undecidedFails: Bool?
    /// For a comparison not decided: how often a 10% slowdown of a priority metric (TTFT) would
    /// have been missed at the repetitions measured, in the suite where it likeliest would
    /// (`MissedChange.weakest`); absent when decided, or when no spread tells.
    public var missed: MissedChange?
    /// The whole comparison in one line, HPT-style: how likely head is slower over every suite's
    /// conversations, and by at least what factor at 95% (`HPTVerdict`). A summary, never a gate;
    /// absent in comparisons written before it.
    public var hpt: HPTVerdict?
    /// How each side measured its peak memory, when they differ in it (`MemoryContext`): compared
    /// with a note, or left out of the comparison. Absent when alike (and in comparisons written before it).
    public var memoryContext: MemoryContext?

    public init(
        base: ComparedSide, head: ComparedSide, settings: ComparisonSettings, design: ComparisonDesign, family: TestFamily,
        differences: [SettingDifference], suites: [SuiteComparison], quality: QualityComparison, load: LoadComparison
    ) {
        schemaVersion = Self.currentSchemaVersion
        self.base = base
        self.head = head
        self.settings = settings
        self.design = design
        self.family = family
        self.differences = differences
        self.suites = suites
        self.quality = quality
        self.load = load
    }

    /// True when base and head are the same recorded runs (`compare HEAD HEAD`): one set of replays
    /// read twice, so no change and no run-to-run offset between the sides.
    public var comparesARunWithItself: Bool {
        !base.runs.isEmpty && Set(base.runs) == Set(head.runs)
    }

    /// Metric changes that gate: suite-level metrics with a threshold.
    public var metricRegressions: [(suite: String, change: MetricChange)] {
        suites.flatMap { suite in suite.metrics.filter { $0.verdict == .regression }.map { (suite.name, $0) } }
    }

    public var metricImprovements: [(suite: String, change: MetricChange)] {
        suites.flatMap { suite in suite.metrics.filter { $0.verdict == .improvement }.map { (suite.name, $0) } }
    }

    public var underpowered: [(suite: String, change: MetricChange)] {
        suites.flatMap { suite in suite.metrics.filter { $0.verdict == .underpowered }.map { (suite.name, $0) } }
    }

    /// True when HEAD is worse than BASE: a metric regressed, or a check or turn fails significantly more often.
    public var hasRegression: Bool { !metricRegressions.isEmpty || quality.hasRegression || ledger?.hasRegression == true }

    /// Every reason the job this comparison decides ends with a failure, in words: not comparable,
    /// a regression, the head's own suite gates, a comparison not decided under `--undecided
    /// fail`, nothing measured. Empty when it passes.
    public var failingReasons: [String] {
        var reasons: [String] = []
        if !mismatches.isEmpty { reasons.append("the sides were measured differently") }
        if hasRegression { reasons.append("a regression") }
        if let gates = headGatesFailed, !gates.isEmpty {
            reasons.append("the head's suite gate\(gates.count == 1 ? "" : "s") (\(gates.joined(separator: "; ")))")
        }
        if measuredNothing { reasons.append("nothing measured on both sides") }
        if undecidedFails == true, !hasRegression, !isDecided { reasons.append("not decided, with --undecided fail") }
        return reasons
    }

    /// True when more repetitions could not change whether the gate fails: every gated metric is
    /// a regression, an improvement, unchanged, not worse or not measured, and no check or turn
    /// changed without its test deciding. A paired run stops adding repetitions once this holds.
    public var isDecided: Bool {
        underpowered.isEmpty && quality.undecided.isEmpty && quality.turnsUndecided.isEmpty
            && !quality.flaky.contains { abs($0.rateDifference) >= CheckChange.openDifference }
            // A suite whose replays were all left out for a busy machine was not measured: more rounds may be.
            && !suites.contains { $0.leftOut > 0 && $0.metrics.allSatisfy { $0.verdict == .notMeasured } }
    }

    /// True when no metric of any suite was measured on both sides (every replay left out as
    /// disturbed, or every turn failed): the comparison has no verdict on performance.
    public var measuredNothing: Bool {
        !suites.contains { $0.metrics.contains { $0.verdict != .notMeasured } }
    }

    public var notWorse: [(suite: String, change: MetricChange)] {
        suites.flatMap { suite in suite.metrics.filter { $0.verdict == .notWorse }.map { (suite.name, $0) } }
    }

    /// Differences that make the timings incomparable (not those the commits themselves made).
    public var mismatches: [SettingDifference] { differences.filter { !$0.isCommitDetermined } }

    /// Sets `ledger`, its rules reported and never gated when the sides were not measured alike
    /// (compared anyway with `--allow-mismatch`): a fact of one machine or build is not the code's.
    public mutating func attachLedger(_ ledger: LedgerComparison) {
        var ledger = ledger
        if ledger.notGated == nil, !mismatches.isEmpty {
            ledger.notGated =
                "the sides were not measured alike (\(mismatches.map(\.field).joined(separator: ", "))): a difference may be theirs, "
                + "not the code's"
        }
        self.ledger = ledger
    }
}

// MARK: - Looks of a paired run

extension Comparison {
    /// Gated metrics the settings' `priority` lists that are still open (underpowered): a paired
    /// run keeps adding rounds while any is, even past a regression confirmed elsewhere.
    public var priorityOpen: [(suite: String, change: MetricChange)] {
        let priority = Set(settings.priorityMetrics)
        return underpowered.filter { priority.contains($0.change.metric) }
    }

    /// This comparison with the regressions `earlier` confirmed at look `look` (after
    /// `repetitions` per side) kept as regressions. A group-sequential design controls the chance
    /// that a test rejects at *any* look, so a regression confirmed once stands: a later look that
    /// no longer reaches its level (its estimate moved back, or its share is spent) cannot undo
    /// it. Metrics keep this look's estimate and interval, with a reason that names the look;
    /// checks and turns take the earlier look's counts, out of every other list.
    public mutating func keepRegressions(confirmedIn earlier: Comparison, look: Int, repetitions: Int) {
        let confirmed = "confirmed at look \(look) (\(repetitions) repetitions per side)"
        for earlierSuite in earlier.suites {
            guard let suite = suites.firstIndex(where: { $0.name == earlierSuite.name }) else { continue }
            for change in earlierSuite.metrics where change.verdict == .regression {
                guard let index = suites[suite].metrics.firstIndex(where: { $0.metric == change.metric }),
                    suites[suite].metrics[index].verdict != .regression
                else { continue }
                suites[suite].metrics[index].verdict = .regression
                suites[suite].metrics[index].reason = "worse, \(confirmed); a confirmed regression stands at later looks"
            }
        }
        func sameCheck(_ a: CheckChange, _ b: CheckChange) -> Bool {
            a.suite == b.suite && a.conversation == b.conversation && a.turn == b.turn && a.position == b.position
        }
        for check in earlier.quality.regressions where !quality.regressions.contains(where: { sameCheck($0, check) }) {
            quality.improvements.removeAll { sameCheck($0, check) }
            quality.flaky.removeAll { sameCheck($0, check) }
            quality.undecided.removeAll { sameCheck($0, check) }
            var kept = check
            kept.detail = [check.detail, confirmed].compactMap { $0 }.joined(separator: "; ")
            quality.regressions.append(kept)
        }
        func sameTurn(_ a: TurnChange, _ b: TurnChange) -> Bool {
            a.suite == b.suite && a.conversation == b.conversation && a.turn == b.turn
        }
        for turn in earlier.quality.turnRegressions where !quality.turnRegressions.contains(where: { sameTurn($0, turn) }) {
            quality.turnsUndecided.removeAll { sameTurn($0, turn) }
            var kept = turn
            kept.headOutcome += " (\(confirmed))"
            quality.turnRegressions.append(kept)
        }
    }
}

// MARK: - Expected changes

extension Comparison {
    /// Changes the head's commits declared (`ChatEval-Expect`) reported as accepted instead of
    /// failing: a metric regression becomes `.accepted`, a check regression moves to
    /// `quality.accepted`, an exact ledger rule to the change's `accepted`, an exact check gets
    /// `acceptedBy`. A trailer accepts only its own commit's change: a change past the sum of the
    /// bounds of the trailers covering it still fails (each of them says by how much, in
    /// `exceeded`), and a trailer without a bound on a head whose other commits change the
    /// suites' inputs too accepts nothing (`Expectation.notApplied`). Every expectation is kept in
    /// `expectations`, marked observed when a change in its direction matched it (an improvement,
    /// for `better`), so that one that did not happen is reported too. Changes nothing expects
    /// fail as before.
    public mutating func accept(_ declared: [Expectation]) {
        guard !declared.isEmpty else { return }
        var claims = ExpectationClaims(declared)
        for suite in suites.indices {
            let name = suites[suite].name
            for index in suites[suite].metrics.indices {
                let change = suites[suite].metrics[index]
                switch change.verdict {
                case .regression:
                    let worse = ExpectationClaims.worseness(change)
                    let outcome = claims.claim(
                        .init(suite: name, subject: change.metric.name, direction: .worse, place: name),
                        amount: worse?.estimate, shown: worse?.atLeast,
                        words: ExpectationClaims.words(change))
                    switch outcome {
                    case .accepted(let words):
                        suites[suite].metrics[index].verdict = .accepted
                        suites[suite].metrics[index].reason = "worse, \(words); \(change.reason)"
                    case .exceeded(let words):
                        suites[suite].metrics[index].reason = "worse, \(words); \(change.reason)"
                    case .none: break
                    }
                case .improvement:
                    claims.observe(.init(suite: name, subject: change.metric.name, direction: .better, place: name))
                // Nothing decided past the threshold: no expectation is met. A metric is never
                // flaky or undecided (counts are).
                case .unchanged, .notWorse, .underpowered, .notMeasured, .notGated, .accepted, .flaky, .undecided: break
                }
            }
        }
        acceptChecks(&claims)
        if var ledger {
            claims.accept(&ledger)
            self.ledger = ledger
        }
        expectations = claims.finished
    }

    /// Check regressions the trailers cover move to `quality.accepted`; improvements are observed.
    private mutating func acceptChecks(_ claims: inout ExpectationClaims) {
        var stillFailing: [CheckChange] = []
        for check in quality.regressions {
            let change = ExpectationClaims.Change(
                suite: check.suite, subject: "checks", check: check.check, direction: .worse,
                place: "\(check.suite)/\(check.conversation) check \(check.position) \(check.check)")
            if case .accepted = claims.claim(change, amount: nil, shown: nil, words: "checks:\(check.check)") {
                quality.accepted = (quality.accepted ?? []) + [check]
            } else {
                stillFailing.append(check)
            }
        }
        quality.regressions = stillFailing
        for check in quality.improvements {
            claims.observe(.init(suite: check.suite, subject: "checks", check: check.check, direction: .better, place: check.suite))
        }
    }

    /// Changes accepted as a head commit expected them, of every kind: metrics, checks, exact
    /// ledger changes and exact checks.
    public var acceptedCount: Int {
        acceptedMetrics.count + (quality.accepted?.count ?? 0) + (ledger?.acceptedChanges ?? 0)
    }

    /// Metric changes accepted as a head commit expected them.
    public var acceptedMetrics: [(suite: String, change: MetricChange)] {
        suites.flatMap { suite in suite.metrics.filter { $0.verdict == .accepted }.map { (suite.name, $0) } }
    }
}
