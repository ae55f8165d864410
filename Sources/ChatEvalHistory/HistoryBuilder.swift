import ChatEvalCore
import ChatEvalStore
import Foundation

/// Builds a `History` from the commits walked and the runs recorded for them.
public enum HistoryBuilder {
    /// - `commits`: newest first, as the first-parent walk yields them.
    /// - `runs`: the runs of those commits (others are ignored). Dirty and incomplete runs are
    ///   counted and left out: they do not measure their commit.
    /// - `suites`: only these suites (nil: all).
    public static func build(
        commits newestFirst: [CommitSummary], runs: [RunDigest], metrics: [HistoryMetric], suites: Set<String>? = nil,
        detector: ChangePointDetector = ChangePointDetector()
    ) -> History {
        let commits = Array(newestFirst.reversed())
        let positions = Dictionary(commits.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var dirty = 0, incomplete = 0
        // key → commit position → runs' suites
        var grouped: [SeriesKey: [Int: [(run: RunDigest, suite: SuiteDigest)]]] = [:]
        for run in runs {
            guard let commit = run.commit, let position = positions[commit] else { continue }
            if run.dirty {
                dirty += 1
                continue
            }
            if run.status != .complete {
                incomplete += 1
                continue
            }
            for suite in run.suites where suites?.contains(suite.name) ?? true {
                let key = SeriesKey(
                    suite: suite.name, machine: run.machine, modelSha256: run.modelSha256, model: run.model,
                    engine: run.engine, cacheMode: run.cacheMode)
                grouped[key, default: [:]][position, default: []].append((run, suite))
            }
        }
        var series: [HistorySeries] = []
        for (key, byCommit) in grouped.sorted(by: { $0.key < $1.key }) {
            let positions = byCommit.sorted { $0.key < $1.key }
            for metric in metrics {
                let points = positions.compactMap { point(metric, position: $0.key, commit: commits[$0.key].id, runs: $0.value) }
                guard !points.isEmpty else { continue }
                series.append(
                    HistorySeries(
                        key: key, metric: metric, points: points,
                        steps: steps(in: points, metric: metric, commits: commits, detector: detector)))
            }
        }
        return History(
            commits: commits, metrics: metrics.map(\.name), series: series, skippedDirtyRuns: dirty, skippedIncompleteRuns: incomplete,
            detection: .init(
                method:
                    "e-divisive with a Mann-Whitney confirmation; "
                    + "change: Hodges-Lehmann shift (pass rate: difference of means, bootstrap interval)",
                alpha: detector.alpha,
                permutations: detector.permutations, minimumSegment: detector.minimumSegment))
    }

    private static func point(_ metric: HistoryMetric, position: Int, commit: String, runs: [(run: RunDigest, suite: SuiteDigest)])
        -> HistoryPoint?
    {
        let values: [Double]
        let median: Double
        switch metric {
        case .metric(let metric):
            values = runs.flatMap { $0.suite.samples[metric] ?? [] }
            guard let distribution = Distribution(values) else { return nil }
            median = distribution.median
        case .passRate:
            values = runs.compactMap(\.suite.passRate)
            let total = runs.reduce(0) { $0 + $1.suite.checksTotal }
            guard !values.isEmpty, total > 0 else { return nil }
            median = runs.reduce(0) { $0 + $1.suite.checksPassed } / total
        }
        let sorted = values.sorted()
        let (lower, upper) =
            metric == .passRate
            ? (sorted.first ?? median, sorted.last ?? median)
            : (Distribution.percentile(sorted: sorted, 25), Distribution.percentile(sorted: sorted, 75))
        return HistoryPoint(
            position: position, commit: commit, runs: runs.count, samples: values.count, median: median, lower: lower, upper: upper,
            minimum: sorted.first ?? median, maximum: sorted.last ?? median,
            hostnames: Array(Set(runs.map(\.run.hostname))).sorted(), builds: Array(Set(runs.map(\.run.build))).sorted())
    }

    /// Change points of the points' medians, each named by its suspect commit.
    private static func steps(in points: [HistoryPoint], metric: HistoryMetric, commits: [CommitSummary], detector: ChangePointDetector)
        -> [HistoryStep]
    {
        var detector = detector
        // A pass rate takes a few levels: its steps are a change of mean, not a location shift.
        if metric == .passRate { detector.estimator = .mean }
        return detector.changePoints(in: points.map(\.median)).map { found in
            let first = points[found.index]
            let suspectPosition = points[found.index - 1].position + 1
            let before = found.medianBefore
            // Direction, size and interval from the one estimate (confirmed only when its interval
            // lies on one side of 0, so the estimate's sign is the interval's).
            let change = found.change
            let direction = change.estimate != 0 ? change.estimate : (change.lower + change.upper) / 2
            let worse = metric.polarity == .smallerIsBetter ? direction > 0 : direction < 0
            return HistoryStep(
                suspect: commits[suspectPosition].id, suspectPosition: suspectPosition, firstMeasured: first.commit,
                firstMeasuredPosition: first.position, before: before, after: found.medianAfter,
                change: before != 0 ? change.estimate / abs(before) : nil,
                changeLower: before != 0 ? change.lower / abs(before) : nil, changeUpper: before != 0 ? change.upper / abs(before) : nil,
                pValue: found.shift.pValue, splitPValue: found.splitPValue, isWorse: worse)
        }
    }
}
