import ChatEvalCore
import ChatEvalStore
import Foundation

/// What `chateval history` shows, as data (documented by `reports/schema/history.schema.json`):
/// the commits walked, and one series per suite × machine × model × metric with a point per
/// commit that has results and the steps found in it.
public struct History: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// The commits walked, oldest first (`chateval history` walks first-parent from HEAD).
    public var commits: [CommitSummary]
    /// The metrics asked for, by name (`ttft`, `decode-tps`, ..., `pass-rate`).
    public var metrics: [String]
    public var series: [HistorySeries]
    /// Runs of these commits left out, and why.
    public var skippedDirtyRuns: Int
    public var skippedIncompleteRuns: Int
    /// The change-point method's settings.
    public var detection: Detection

    public struct Detection: Codable, Sendable, Hashable {
        public var method: String
        public var alpha: Double
        public var permutations: Int
        public var minimumSegment: Int
    }

    public init(
        commits: [CommitSummary], metrics: [String], series: [HistorySeries], skippedDirtyRuns: Int, skippedIncompleteRuns: Int,
        detection: Detection
    ) {
        schemaVersion = Self.currentSchemaVersion
        self.commits = commits
        self.metrics = metrics
        self.series = series
        self.skippedDirtyRuns = skippedDirtyRuns
        self.skippedIncompleteRuns = skippedIncompleteRuns
        self.detection = detection
    }

    /// Steps that made a metric worse, over all series.
    public var regressions: [(series: HistorySeries, step: HistoryStep)] {
        series.flatMap { series in series.steps.filter(\.isWorse).map { (series, $0) } }
    }

    /// The commit at `position` of `commits`.
    public func commit(at position: Int) -> CommitSummary? {
        commits.indices.contains(position) ? commits[position] : nil
    }
}

/// What a series is measured on: runs of different keys are never mixed.
public struct SeriesKey: Codable, Sendable, Hashable, Comparable {
    public var suite: String
    /// `MachineInfo.performanceClass`.
    public var machine: String
    public var modelSha256: String?
    /// The model file name (for display).
    public var model: String
    public var engine: String
    public var cacheMode: CacheMode

    public init(suite: String, machine: String, modelSha256: String?, model: String, engine: String, cacheMode: CacheMode) {
        self.suite = suite
        self.machine = machine
        self.modelSha256 = modelSha256
        self.model = model
        self.engine = engine
        self.cacheMode = cacheMode
    }

    public static func < (lhs: SeriesKey, rhs: SeriesKey) -> Bool {
        (lhs.suite, lhs.machine, lhs.model, lhs.modelSha256 ?? "", lhs.engine, lhs.cacheMode.rawValue)
            < (rhs.suite, rhs.machine, rhs.model, rhs.modelSha256 ?? "", rhs.engine, rhs.cacheMode.rawValue)
    }

    /// "smoke — SmolLM2.gguf (b179c95…), llama.cpp, session; Intel …, 2 cores, x86_64"
    public var label: String {
        "\(suite) — \(model)\(modelSha256.map { " (\($0.prefix(7)))" } ?? ""), \(engine), \(cacheMode.rawValue); \(machine)"
    }
}

/// A metric a history follows: one of `Metric`, or the checks' pass rate.
public enum HistoryMetric: Hashable, Sendable, Codable {
    case metric(Metric)
    case passRate

    public static let passRateName = "pass-rate"
    /// TTFT and the pass rate.
    public static let defaults: [HistoryMetric] = [.metric(.timeToFirstToken), .passRate]

    public init?(name: String) {
        if name == Self.passRateName {
            self = .passRate
        } else if let metric = Metric(name: name) {
            self = .metric(metric)
        } else {
            return nil
        }
    }

    /// Every name `--metric` takes.
    public static var names: [String] { Metric.names + [passRateName] }

    public var name: String {
        switch self {
        case .metric(let metric): metric.name
        case .passRate: Self.passRateName
        }
    }

    public var label: String {
        switch self {
        case .metric(let metric): metric.label
        case .passRate: "pass rate"
        }
    }

    public var polarity: Polarity {
        switch self {
        case .metric(let metric): metric.polarity
        case .passRate: .biggerIsBetter
        }
    }

    /// The unit, as `Metric.Unit` (the pass rate is a ratio).
    public var unit: Metric.Unit {
        switch self {
        case .metric(let metric): metric.unit
        case .passRate: .ratio
        }
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let metric = HistoryMetric(name: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown metric \(name)"))
        }
        self = metric
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// One metric of one `SeriesKey` across the commits.
public struct HistorySeries: Codable, Sendable {
    public var key: SeriesKey
    public var metric: HistoryMetric
    /// One per commit with results, oldest first; commits without a point are gaps.
    public var points: [HistoryPoint]
    public var steps: [HistoryStep]
}

/// A commit's value of a series.
public struct HistoryPoint: Codable, Sendable {
    /// Position of the commit in `History.commits`.
    public var position: Int
    public var commit: String
    /// Runs pooled, and the values they hold (turns for a timing; runs for the pass rate).
    public var runs: Int
    public var samples: Int
    /// Median of the pooled values (for the pass rate: all checks of all runs pooled).
    public var median: Double
    /// The spread: 25th and 75th percentiles of the values (for the pass rate: the lowest and
    /// highest run), and the extremes.
    public var lower: Double
    public var upper: Double
    public var minimum: Double
    public var maximum: Double
    /// The machines' names and engine builds of the runs.
    public var hostnames: [String]
    public var builds: [String]
}

/// A step of a series: the level changed at `suspect`, or — when commits before it have no
/// results — somewhere from `suspect` to `firstMeasured`.
public struct HistoryStep: Codable, Sendable {
    /// The first commit that may have caused the step: the one after the last commit measured
    /// at the old level.
    public var suspect: String
    public var suspectPosition: Int
    /// The first commit measured at the new level (the same as `suspect` without gaps).
    public var firstMeasured: String
    public var firstMeasuredPosition: Int
    /// Medians of the segments before and after.
    public var before: Double
    public var after: Double
    /// The change between the segments divided by `before`, with its interval divided alike; nil
    /// when before is 0. For times and rates the shift (Hodges-Lehmann, the median of the
    /// pairwise differences, with Moses' interval); for the pass rate, which takes a few levels,
    /// the difference of the segments' means (bootstrap interval). One estimate gives the change,
    /// its interval and `isWorse`: segment medians can move while the typical pairwise difference
    /// does not (tie-heavy series), and a step reported one way by one estimate and the other way
    /// by another would be a lie either way.
    public var change: Double?
    public var changeLower: Double?
    public var changeUpper: Double?
    /// The rank test between the two segments, and the permutation test of the split.
    public var pValue: Double
    public var splitPValue: Double
    /// Worse given the metric's polarity: the side of the shift estimate (of its interval, when
    /// the estimate is 0).
    public var isWorse: Bool
    /// The commits from `suspect` to `firstMeasured`, each with the run inputs it changed (suite
    /// files, the project file); nil when not looked up. A commit that changed no input cannot
    /// have caused the step through the repository.
    public var suspects: [StepSuspect]?

    /// The suspects that changed an input: the ones that can have caused the step.
    public var inputSuspects: [StepSuspect] { (suspects ?? []).filter { !$0.changedInputs.isEmpty } }
}

/// A commit in a step's range and what it changed of the runs' inputs.
public struct StepSuspect: Codable, Sendable, Hashable {
    public var commit: String
    /// The input files it changed, relative to the repository root; empty when it changed none.
    public var changedInputs: [String]

    public init(commit: String, changedInputs: [String]) {
        self.commit = commit
        self.changedInputs = changedInputs
    }
}
