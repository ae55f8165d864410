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
}

/// The look a comparison was decided at. A plain comparison is a single look spending everything
/// (`look == looks.count == 1`, `share == 1`).
public struct ComparisonDesign: Codable, Sendable, Hashable {
    /// 1-based look, of `looks.count` planned.
    public var look: Int
    /// Repetitions per side at each planned look.
    public var looks: [Int]
    /// Share of the comparison's error rates this look spent.
    public var share: Double
    /// The false-alarm rate this look decided at (the comparison's × share), over the family.
    public var familyErrorRate: Double
    /// The level of this look's intervals, which decide "unchanged".
    public var confidence: Double

    public init(look: Int, looks: [Int], share: Double, familyErrorRate: Double, confidence: Double) {
        self.look = look
        self.looks = looks
        self.share = share
        self.familyErrorRate = familyErrorRate
        self.confidence = confidence
    }

    /// One look spending everything: what `compare` of two recorded runs does.
    public static func single(_ settings: ComparisonSettings, repetitions: Int) -> ComparisonDesign {
        ComparisonDesign(
            look: 1, looks: [repetitions], share: 1, familyErrorRate: settings.familyErrorRate, confidence: settings.confidence)
    }

    public var isSequential: Bool { looks.count > 1 }
}

/// The tests decided together: gated suite metrics, checks and turn outcomes.
public struct TestFamily: Codable, Sendable, Hashable {
    /// Tests in the family.
    public var tests: Int
    /// Tests decided at the family's level (all of them when the family is decided by relabelling
    /// replays; before, the tests Tarone's rule kept for Holm's adjustment).
    public var testable: Int
    /// Relabellings of the replays that decided the family (`JointPermutation`); absent in
    /// comparisons written before it (Tarone and Holm decided those).
    public var labelings: Int?
    /// True when every relabelling was enumerated (the adjusted p-values are exact).
    public var exact: Bool?

    public init(tests: Int, testable: Int, labelings: Int? = nil, exact: Bool? = nil) {
        self.tests = tests
        self.testable = testable
        self.labelings = labelings
        self.exact = exact
    }
}

/// Why a paired run stopped adding repetitions, and how many it took.
public struct SequentialOutcome: Codable, Sendable, Hashable {
    public enum Stop: String, Codable, Sendable, Hashable {
        /// Every gated metric, check and turn was decided.
        case decided
        /// A regression was confirmed: more repetitions could not undo it.
        case regression
        /// The most repetitions the design allows were run.
        case maximumRepetitions = "maximum_repetitions"
        /// The time budget would have been exceeded by another round.
        case timeBudget = "time_budget"
        /// The run was interrupted.
        case interrupted
    }

    public var stop: Stop
    /// Repetitions per side measured (and kept) when the run stopped.
    public var repetitions: Int
    /// Rounds run, and the seconds they took.
    public var rounds: Int
    public var seconds: Double
    /// One line per look: repetitions, what was undecided.
    public var looks: [String]

    public init(stop: Stop, repetitions: Int, rounds: Int, seconds: Double, looks: [String]) {
        self.stop = stop
        self.repetitions = repetitions
        self.rounds = rounds
        self.seconds = seconds
        self.looks = looks
    }
}

/// How busy the machine was while each side was measured.
public struct LoadComparison: Codable, Sendable, Hashable {
    public var base: SideLoad
    public var head: SideLoad
    /// Set when the sides were measured under clearly different load (the mean load of all their
    /// replays, kept or left out, differs by more than `LoadComparison.imbalance` cores): their
    /// timings carry different noise.
    public var warning: String?

    /// A difference in mean load, in cores, that makes the sides' noise differ.
    public static let imbalance = 0.25

    public init(base: SideLoad, head: SideLoad) {
        self.base = base
        self.head = head
        if let b = base.meanOtherCores, let h = head.meanOtherCores, abs(b - h) > Self.imbalance {
            warning = String(
                format:
                    "base was measured while other processes used %.2f cores on average, head %.2f: their timings carry different noise", b,
                h)
        }
    }
}

/// The load one side's replays were measured under.
public struct SideLoad: Codable, Sendable, Hashable {
    /// Measured replays with a load reading.
    public var sampled: Int
    /// Replays left out because other processes held the cores while they ran.
    public var leftOut: Int
    /// Replays re-measured for that reason (their first measurement is kept in the record, marked).
    public var remeasured: Int
    /// Mean load of every measured replay, kept or left out, in cores used by other processes;
    /// nil without readings.
    public var meanOtherCores: Double?

    public init(sampled: Int, leftOut: Int, remeasured: Int, meanOtherCores: Double?) {
        self.sampled = sampled
        self.leftOut = leftOut
        self.remeasured = remeasured
        self.meanOtherCores = meanOtherCores
    }
}

/// One side of a comparison: the runs it pooled and what they ran.
public struct ComparedSide: Codable, Sendable {
    /// Commit of the runs (nil outside a repository).
    public var commit: String?
    public var shortCommit: String?
    public var subject: String?
    /// True when a run was made with uncommitted changes.
    public var dirty: Bool
    /// Run ids pooled on this side, and the files or notes they came from.
    public var runs: [String]
    public var sources: [String]
    public var model: String
    public var machine: String
    public var repetitions: Int

    public init(
        commit: String?, shortCommit: String?, subject: String?, dirty: Bool, runs: [String], sources: [String],
        model: String, machine: String, repetitions: Int
    ) {
        self.commit = commit
        self.shortCommit = shortCommit
        self.subject = subject
        self.dirty = dirty
        self.runs = runs
        self.sources = sources
        self.model = model
        self.machine = machine
        self.repetitions = repetitions
    }
}

/// What a comparison decides about one metric.
public enum ChangeVerdict: String, Codable, Sendable, Hashable {
    /// Worse beyond the threshold, and the test says it is no accident.
    case regression
    /// Better beyond the threshold, and the test says it is no accident.
    case improvement
    /// The interval lies within the threshold: any change is smaller than it.
    case unchanged
    /// The interval rules out a change past the threshold in the worse direction, but reaches
    /// past it in the better one: not a regression, and too few replays to tell an improvement.
    case notWorse = "not_worse"
    /// Neither: too few or too noisy replays to decide at this threshold (`repetitionsNeeded`
    /// forecasts how many would).
    case underpowered
    /// One side has no values (a metric a runtime does not measure, or turns that failed).
    case notMeasured = "not_measured"
    /// The metric has no threshold in the settings: its change is shown, never decided, and it
    /// stays out of the family. Not a pass: nothing was claimed about it.
    case notGated = "not_gated"
    /// Worse past the threshold, as a head commit's `ChatEval-Expect` trailer says it would be:
    /// reported, never failed.
    case accepted

    /// The verdict as reports print it ("not worse"); `rawValue` is the stable JSON spelling.
    public var words: String { rawValue.replacingOccurrences(of: "_", with: " ") }
}

/// How a change is expressed.
public enum ChangeScale: String, Codable, Sendable, Hashable {
    /// head ÷ base − 1: times, rates, memory (compared on a logarithmic scale).
    case relative
    /// head − base in the metric's unit: ratios, which can be 0.
    case absolute
}

/// One metric compared, over a suite (its replays, each conversation compared with itself) or one turn.
public struct MetricChange: Codable, Sendable {
    public var metric: Metric
    /// Medians of the turns' values on each side (the level a reader knows the metric by).
    public var baseMedian: Double?
    public var headMedian: Double?
    /// A typical turn on each side: over the turns measured on both, the per-turn medians'
    /// geometric mean (arithmetic for ratios) — the level `change` estimates a change of, so
    /// head ÷ base − 1 lands near `change` where pooled medians need not. Reports show these.
    public var baseTypical: Double?
    public var headTypical: Double?
    /// Replays compared on each side (the units of the test: a replay's turns share the
    /// machine's state, so they count once).
    public var baseCount: Int
    public var headCount: Int
    public var scale: ChangeScale
    /// The estimated change (Hodges-Lehmann, of a replay's typical value), with its interval at
    /// the look's confidence (an end is infinite when the samples cannot bound it).
    public var change: Double?
    public var changeLower: Double?
    public var changeUpper: Double?
    /// Two-sided p-value of "no change", and after Holm's adjustment over the testable family;
    /// `adjustedPValue` is absent for a test that could not reach the family's level at all.
    public var pValue: Double?
    public var adjustedPValue: Double?
    /// The smallest p-value these values could have given (Tarone's rule leaves out a test
    /// whose smallest p-value cannot reach the family's level).
    public var minimumPValue: Double?
    /// The practical threshold in the same scale as `change`.
    public var threshold: Double?
    public var verdict: ChangeVerdict
    /// For `underpowered`: about how many repetitions per side would decide (see `RepetitionForecast`).
    public var repetitionsNeeded: Int?
    /// The spread (standard deviation) of one replay's value within its conversation and side,
    /// on the compared scale (log for relative changes: 0.05 ≈ 5%), and the conversations
    /// compared: the noise a forecast and `chateval calibrate` work from.
    public var replaySpread: Double?
    public var strata: Int?
    /// Why the verdict is what it is, in one clause.
    public var reason: String

    /// The levels reports show beside `change`: the typical turns, else (older files) the medians.
    public var baseLevel: Double? { baseTypical ?? baseMedian }
    public var headLevel: Double? { headTypical ?? headMedian }

    public init(
        metric: Metric, baseMedian: Double?, headMedian: Double?, baseCount: Int, headCount: Int, scale: ChangeScale,
        verdict: ChangeVerdict, reason: String
    ) {
        self.metric = metric
        self.baseMedian = baseMedian
        self.headMedian = headMedian
        self.baseCount = baseCount
        self.headCount = headCount
        self.scale = scale
        self.verdict = verdict
        self.reason = reason
    }

    /// The change is bad news given the metric's polarity.
    public var isWorse: Bool {
        guard let change else { return false }
        return metric.polarity == .smallerIsBetter ? change > 0 : change < 0
    }
}

/// A suite's metrics, and the same per turn for the detail.
public struct SuiteComparison: Codable, Sendable {
    public var name: String
    /// Replays of this suite left out on both sides together (other processes held the cores).
    public var leftOut: Int
    /// Suite-level comparisons: these gate (one family with the checks and turns).
    public var metrics: [MetricChange]
    /// Per-turn detail: shown, adjusted over all turns of the comparison, never gating.
    public var turns: [TurnComparison]
}

public struct TurnComparison: Codable, Sendable {
    public var conversation: String
    /// 1-based.
    public var turn: Int
    public var metrics: [MetricChange]
}

/// A setting, build or machine property that differs between the sides.
public struct SettingDifference: Codable, Sendable, Hashable {
    /// "machine", "engine build", "model sha256", "chat template", "context size", ...
    public var field: String
    public var base: String
    public var head: String
    /// True when both sides took the value from their commit's project file: the commit changed
    /// it on purpose, and comparing it is the point.
    public var isCommitDetermined: Bool
}

/// What a comparison decides about a check's pass count or a turn's answered count.
public enum CountVerdict: String, Codable, Sendable, Hashable {
    /// Passes (or answers) significantly less often on head: gates.
    case regression
    /// Significantly more often on head.
    case improvement
    /// Not significant, and not the same verdict on every replay of one side.
    case flaky
    /// The same verdict on every replay of each side, but not the same on both, and too few
    /// replays for the difference to be significant (1 of 1 against 0 of 1).
    case undecided
    /// The same on both sides.
    case unchanged
}

/// Checks and turns whose outcome changed between the sides. Each check's pass counts are
/// tested with Fisher's exact test in the same family as the metrics.
public struct QualityComparison: Codable, Sendable {
    /// Checks passing significantly less often on head.
    public var regressions: [CheckChange]
    /// Checks passing significantly more often on head.
    public var improvements: [CheckChange]
    /// Mixed verdicts on a side, and no significant change: reported, never gated.
    public var flaky: [CheckChange]
    /// Constant on each side but different (passed 3 of 3, fails 3 of 3), not yet significant:
    /// more replays would decide.
    public var undecided: [CheckChange]
    /// Checks that exist on one side only.
    public var added: [CheckChange]
    public var removed: [CheckChange]
    /// Turns answered significantly less often on head (failed or skipped instead).
    public var turnRegressions: [TurnChange]
    /// Turns answered on every base replay and failing on every head replay, not yet significant.
    public var turnsUndecided: [TurnChange]

    /// Check regressions a head commit's `ChatEval-Expect` trailer expects: reported, not failed.
    public var accepted: [CheckChange]?
    public var hasRegression: Bool { !regressions.isEmpty || !turnRegressions.isEmpty }
}

/// One check in both sides' replays.
public struct CheckChange: Codable, Sendable, Hashable {
    public var suite: String
    public var conversation: String
    /// 1-based turn, or nil for a conversation-level check.
    public var turn: Int?
    /// 1-based position among the turn's (or conversation's) checks.
    public var position: Int
    public var check: String
    public var basePassed: Int
    public var baseTotal: Int
    public var headPassed: Int
    public var headTotal: Int
    /// Fisher's exact test of the two pass counts, and after Holm's adjustment (absent when the
    /// counts could not reach the family's level, or the check is on one side only).
    public var pValue: Double?
    public var adjustedPValue: Double?
    public var verdict: CountVerdict
    /// The latest head verdict's detail (what was expected and found), and an excerpt of the answer.
    public var detail: String?
    public var answerExcerpt: String?

    /// Head's pass rate minus base's.
    public var rateDifference: Double {
        Double(headPassed) / Double(max(headTotal, 1)) - Double(basePassed) / Double(max(baseTotal, 1))
    }

    /// A flaky check whose pass rate moved by this much or more, not yet significantly, keeps a
    /// paired run going: smaller moves are the noise of a flaky check, not a change worth more replays.
    public static let openDifference = 0.25
}

/// A turn's answered count on both sides, where it changed.
public struct TurnChange: Codable, Sendable, Hashable {
    public var suite: String
    public var conversation: String
    public var turn: Int
    public var baseAnswered: Int
    public var baseTotal: Int
    public var headAnswered: Int
    public var headTotal: Int
    public var pValue: Double?
    public var adjustedPValue: Double?
    public var verdict: CountVerdict
    /// The latest head failure (`context_overflow: ...`) or skip reason.
    public var headOutcome: String
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
    /// `acceptedBy`. Every expectation is kept in `expectations`, marked observed when a change in
    /// its direction matched it (an improvement, for `better`), so that one that did not happen
    /// is reported too. Changes nothing expects fail as before.
    public mutating func accept(_ declared: [Expectation]) {
        guard !declared.isEmpty else { return }
        var expectations = declared
        func claim(suite: String, subject: String, direction: Expectation.Direction) -> Expectation? {
            guard let index = expectations.firstIndex(where: { $0.covers(suite: suite, subject: subject, direction: direction) })
            else { return nil }
            for other in expectations.indices where expectations[other].covers(suite: suite, subject: subject, direction: direction) {
                expectations[other].observed = true
            }
            return expectations[index]
        }
        for suite in suites.indices {
            let name = suites[suite].name
            for index in suites[suite].metrics.indices {
                let change = suites[suite].metrics[index]
                switch change.verdict {
                case .regression:
                    if let expectation = claim(suite: name, subject: change.metric.name, direction: .worse) {
                        suites[suite].metrics[index].verdict = .accepted
                        suites[suite].metrics[index].reason =
                            "worse, as \(expectation.commit) expects (\(Expectation.trailerKey): \(expectation)); \(change.reason)"
                    }
                case .improvement:
                    _ = claim(suite: name, subject: change.metric.name, direction: .better)
                default: break
                }
            }
        }
        var stillFailing: [CheckChange] = []
        for check in quality.regressions {
            if claim(suite: check.suite, subject: "checks", direction: .worse) != nil {
                quality.accepted = (quality.accepted ?? []) + [check]
            } else {
                stillFailing.append(check)
            }
        }
        quality.regressions = stillFailing
        for check in quality.improvements { _ = claim(suite: check.suite, subject: "checks", direction: .better) }
        if var ledger {
            for index in ledger.changes.indices {
                let change = ledger.changes[index]
                var kept: [String] = []
                for rule in change.regressions {
                    if let subject = LedgerChange.subject(ofRule: rule),
                        claim(suite: change.turn.suite, subject: subject, direction: .worse) != nil
                    {
                        ledger.changes[index].accepted = (ledger.changes[index].accepted ?? []) + [rule]
                    } else {
                        kept.append(rule)
                    }
                }
                ledger.changes[index].regressions = kept
            }
            for index in ledger.checks.indices {
                let check = ledger.checks[index]
                let direction: Expectation.Direction = check.headPasses ? .better : .worse
                if let expectation = claim(suite: check.turn.suite, subject: "checks", direction: direction), !check.headPasses {
                    ledger.checks[index].acceptedBy = expectation.commit
                }
            }
            self.ledger = ledger
        }
        for index in expectations.indices where expectations[index].observed == nil { expectations[index].observed = false }
        self.expectations = expectations
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
