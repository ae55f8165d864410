/// One statistic of a distribution, as a suite names it: gates' `stat:`, checks' `aggregate:` and
/// (through `percentile`) the `_pNN` suffixes of serving objectives all use this vocabulary.
public enum Statistic: String, Sendable, Hashable, CaseIterable, Codable {
    case median, mean, p90, p95, p99, min, max

    /// Its value over `distribution` (percentiles interpolate as `Distribution` does).
    public func value(of distribution: Distribution) -> Double {
        switch self {
        case .median: distribution.median
        case .mean: distribution.mean
        case .p90: distribution.p90
        case .p95: distribution.p95
        case .p99: distribution.p99
        case .min: distribution.min
        case .max: distribution.max
        }
    }

    /// The percentile it is (50 for the median), or nil for the mean, min and max.
    public var percentile: Int? {
        switch self {
        case .median: 50
        case .p90: 90
        case .p95: 95
        case .p99: 99
        case .mean, .min, .max: nil
        }
    }

    /// The names a suite may write, in order.
    public static var names: [String] { allCases.map(\.rawValue) }
}
