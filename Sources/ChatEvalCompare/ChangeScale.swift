import ChatEvalCore

/// How a change is expressed.
public enum ChangeScale: String, Codable, Sendable, Hashable {
    /// head ÷ base − 1: times, rates, memory (compared on a logarithmic scale).
    case relative
    /// head − base in the metric's unit: ratios, which can be 0.
    case absolute
}
