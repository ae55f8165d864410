import ChatEvalCore
import ChatEvalHistory
import Foundation

/// A history as CSV (`history --format csv`): the per-commit series table to chart elsewhere —
/// one row per series and commit with results, series by series (suite, model, machine, metric),
/// commits oldest first; a commit without results has no row. Values are in the metric's unit
/// (seconds, tokens/s, a 0–1 ratio, bytes); `step` says `worse` or `better` on the first commit
/// measured at a new level found by the change-point test, empty elsewhere. RFC 4180 as
/// `CSVReport`, text cells guarded against formulas (`CSV.text`).
public enum HistoryCSV {
    public static let columns = [
        "suite", "model", "model_sha256", "engine", "cache_mode", "machine", "metric", "unit", "commit", "short_commit",
        "commit_time", "subject", "runs", "samples", "median", "p25", "p75", "min", "max", "step",
    ]

    public static func render(_ history: History) -> String {
        var text = CSV.record(columns)
        for series in history.series.sorted(by: { ($0.key, $0.metric.name) < ($1.key, $1.metric.name) }) {
            let key = series.key
            let steps = Dictionary(series.steps.map { ($0.firstMeasuredPosition, $0.isWorse ? "worse" : "better") }) { first, _ in first }
            for point in series.points {
                let commit = history.commit(at: point.position)
                // Two typed arrays: as one expression, the cells took the type checker 1.2 s.
                let identity: [String] = [
                    key.suite, key.model, key.modelSha256 ?? "", key.engine, key.cacheMode.rawValue, key.machine, series.metric.name,
                ]
                let shortId: String = commit?.shortId ?? String(point.commit.prefix(7))
                let time: String = commit.map { UTCTimestamp.iso8601($0.time) } ?? ""
                let measured: [String] = [
                    series.metric.unit.rawValue, point.commit, shortId, time, CSV.text(commit?.subject ?? ""), String(point.runs),
                    String(point.samples), CSV.decimal(point.median), CSV.decimal(point.lower), CSV.decimal(point.upper),
                    CSV.decimal(point.minimum), CSV.decimal(point.maximum), steps[point.position] ?? "",
                ]
                text += CSV.record(identity.map(CSV.text) + measured)
            }
        }
        return text
    }
}
