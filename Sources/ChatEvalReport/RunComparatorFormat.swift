import ChatEvalCompare
import ChatEvalCore

/// Formatting shared by the comparison's reports.
public enum RunComparatorFormat {
    /// "95%", "99.7%", "99.99%": a confidence level with the digits it needs.
    public static func confidence(_ level: Double) -> String { RunComparator.percent(level) }
}
