import ChatEvalCore
import Foundation

/// The comparison of a base and a head: plain data (documented by
/// `reports/schema/comparison.schema.json`); the command line alone turns it into an exit code.
public struct Comparison: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var base: ComparedSide
    public var head: ComparedSide
    /// The settings the verdicts were decided with.
    public var settings: ComparisonSettings
    /// Where base and head were not measured alike.
    public var differences: [SettingDifference]
    public var suites: [SuiteComparison]
    public var quality: QualityComparison

    public init(
        base: ComparedSide, head: ComparedSide, settings: ComparisonSettings, differences: [SettingDifference],
        suites: [SuiteComparison], quality: QualityComparison
    ) {
        schemaVersion = Self.currentSchemaVersion
        self.base = base
        self.head = head
        self.settings = settings
        self.differences = differences
        self.suites = suites
        self.quality = quality
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

    /// True when HEAD is worse than BASE: a metric regressed or a check or turn that passed now fails.
    public var hasRegression: Bool { !metricRegressions.isEmpty || quality.hasRegression }

    /// Differences that make the timings incomparable (not those the commits themselves made).
    public var mismatches: [SettingDifference] { differences.filter { !$0.isCommitDetermined } }
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

    public init(commit: String?, shortCommit: String?, subject: String?, dirty: Bool, runs: [String], sources: [String],
                model: String, machine: String, repetitions: Int) {
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
    /// Any change is within the threshold (the interval shows it), or a real change too small to matter.
    case unchanged
    /// Too few or too noisy samples to decide at this threshold (`repetitionsNeeded` says how many would).
    case underpowered
    /// One side has no values (a metric a runtime does not measure, or turns that failed).
    case notMeasured = "not_measured"
}

/// One metric compared, over a suite (all its turns, each turn compared with itself) or one turn.
public struct MetricChange: Codable, Sendable {
    public var metric: Metric
    public var baseMedian: Double?
    public var headMedian: Double?
    public var baseCount: Int
    public var headCount: Int
    /// How `change` is expressed: "relative" (head ÷ base − 1) or "absolute" (head − base, in the
    /// metric's unit; for ratios, which can be 0).
    public var scale: String
    /// The estimated change (Hodges-Lehmann), with its confidence interval (an end is infinite
    /// when the samples cannot bound it).
    public var change: Double?
    public var changeLower: Double?
    public var changeUpper: Double?
    /// Two-sided p-value of "no change", and after Holm's adjustment over the family it belongs to.
    public var pValue: Double?
    public var adjustedPValue: Double?
    /// The practical threshold in the same scale as `change`.
    public var threshold: Double?
    public var verdict: ChangeVerdict
    /// For `underpowered`: about how many repetitions per side would decide at this threshold.
    public var repetitionsNeeded: Int?
    /// Why the verdict is what it is, in one clause.
    public var reason: String

    /// The change is bad news given the metric's polarity.
    public var isWorse: Bool {
        guard let change else { return false }
        return metric.polarity == .smallerIsBetter ? change > 0 : change < 0
    }
}

/// A suite's metrics, and the same per turn for the detail.
public struct SuiteComparison: Codable, Sendable {
    public var name: String
    /// Suite-level comparisons: these gate (Holm over every suite × metric of the comparison).
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

/// Checks and turns whose outcome changed between the sides.
public struct QualityComparison: Codable, Sendable {
    /// Passed on every base replay, fail on every head replay.
    public var newlyFailing: [CheckChange]
    /// Failed on every base replay, pass on every head replay.
    public var newlyPassing: [CheckChange]
    /// Not the same verdict on every replay of one side: reported, never gated.
    public var flaky: [CheckChange]
    /// Checks that exist on one side only.
    public var added: [CheckChange]
    public var removed: [CheckChange]
    /// Turns answered on every base replay that fail (or are skipped) on every head replay.
    public var newlyFailingTurns: [TurnChange]

    public var hasRegression: Bool { !newlyFailing.isEmpty || !newlyFailingTurns.isEmpty }
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
    /// The latest head verdict's detail (what was expected and found), and an excerpt of the answer.
    public var detail: String?
    public var answerExcerpt: String?
}

/// A turn that answered on base and fails on head.
public struct TurnChange: Codable, Sendable, Hashable {
    public var suite: String
    public var conversation: String
    public var turn: Int
    /// The head failure (`context_overflow: ...`) or skip reason.
    public var headOutcome: String
}
