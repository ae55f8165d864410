import ChatEvalCore
import ChatEvalStore

/// A turn that re-evaluated tokens its cache held: how many, what they cost and why — "reuse
/// 120 of 300 reusable tokens (40%): 180 evaluated again, ≈ 110 ms; the template rewrites the
/// previous answer it sends back: after "…Paris." the cache held "<|im_end|>" and the prompt
/// "\n<|im_end|>"". Nil when nothing reusable was missed.
public enum ReuseLine {
    public static func render(_ metrics: TurnMetrics?, indent: String, width: Int = RunReport.width) -> String? {
        guard let metrics, let missed = metrics.missedTokens, missed > 0, let reusable = metrics.reusableTokens,
            let reused = metrics.reusedTokens, let efficiency = metrics.reuseEfficiency
        else { return nil }
        var line =
            "\(indent)reuse \(reused) of \(reusable) reusable tokens (\(Format.percent(efficiency))): \(missed) evaluated again"
            + (metrics.missedPrefillTime.map { ", ≈ \(Format.duration($0))" } ?? "")
        if let miss = metrics.reuseMiss {
            line += "; \(miss.cause.explanation)"
            if miss.cause != .serverSide, miss.cause != .coldCache {  // neither has a point of divergence to show
                line +=
                    ": at token \(miss.position), "
                    + "after \(quoted(miss.before)) the cache held \(quoted(miss.cached)) and the prompt \(quoted(miss.sent))"
            }
        }
        return Format.wrap(line, width: width, hanging: indent + "  ")
    }

    /// Text as a quoted excerpt with line breaks and control characters visible.
    static func quoted(_ text: String) -> String {
        "\"" + Format.excerpt(text.replacingOccurrences(of: "\n", with: "\\n"), limit: 32) + "\""
    }
}
