import ChatEvalCore
import ChatEvalStore
import Foundation

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
