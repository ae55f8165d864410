import ChatEvalCompare
import ChatEvalCore
import Foundation

/// What `calibrate` prints of a gate's audit: the false-alarm rate, the repetitions used, and per
/// suite and metric the replay noise, the change it detects and its false alarms.
public enum GateAuditReport {
    public static func render(_ audit: GateAudit, settings: ComparisonSettings) -> String {
        var lines = ["gate      " + ComparisonReport.auditSentence(audit)]
        let used = audit.repetitionsUsed.sorted()
        if let median = Distribution(used.map(Double.init))?.median {
            lines.append(
                String(
                    format: "          %d of %d comparisons decided (%@); repetitions per side: median %.0f, %d to %d",
                    audit.decided, audit.comparisons, Self.interval(audit.decided, audit.comparisons), median, used.first ?? 0,
                    used.last ?? 0))
        }
        if audit.replaysLeftOut > 0 {
            lines.append(
                "          \(audit.replaysLeftOut) of \(audit.replaysMeasured) replays were measured while other processes held the cores")
        }
        lines.append("")
        var table = TextTable([
            .init("suite", .left), .init("metric", .left), .init("replay noise"), .init("detects at \(audit.looks.last ?? 0) reps"),
            .init("threshold"), .init("false alarms"),
        ])
        for noise in audit.metrics {
            let relative = noise.scale == .relative
            let threshold =
                settings.thresholds[noise.metric].map {
                    relative ? String(format: "%.0f%%", $0.relative * 100) : String(format: "%.3f", $0.absolute)
                } ?? "–"
            table.add([
                noise.suite, noise.metric.name,
                relative ? String(format: "%.1f%%", expm1(noise.spread) * 100) : String(format: "%.3f", noise.spread),
                relative ? String(format: "≥ %.1f%%", noise.detectable * 100) : String(format: "≥ %.3f", noise.detectable),
                threshold, "\(noise.falseAlarms)/\(audit.comparisons) \(Self.interval(noise.falseAlarms, audit.comparisons))",
            ])
        }
        lines.append(table.render(indent: "  "))
        lines.append("  (rates: 95% Clopper–Pearson intervals; detects: 90% power at the last look, never under the threshold)")
        for warning in audit.thresholdWarnings(settings) { lines.append("⚠ " + warning) }
        return lines.joined(separator: "\n")
    }

    /// "0.0% [0.0%, 3.3%]": a count of `trials` as a rate with its 95% interval.
    static func interval(_ count: Int, _ trials: Int) -> String {
        ClopperPearson(successes: count, trials: trials)?.percentText() ?? "–"
    }
}
