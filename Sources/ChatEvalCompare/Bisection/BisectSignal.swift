import ChatEvalCore

/// One thing that differs between a bisection's good and bad commits, chased on its own: each
/// signal has its culprit (or two), found by its own probes.
///
/// Exact signals (`ledger`, `exactCheck`) are facts of greedy replays: one repetition of each
/// side decides them, and their probes spend none of the bisection's error rate. `passRate` is
/// decided by Fisher's exact test on pass counts, `metric` by the paired rank test; both in
/// rounds, at a share of the bisection's error rate (`BisectBudget`).
public enum BisectSignal: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    /// The exact work ledger (tokens evaluated, reused, generated; the answer) of any turn of `suite`.
    case ledger(suite: String)
    /// A check whose verdict flips on exact answers.
    case exactCheck(place: CheckPlace)
    /// A check that passes less often (Fisher's exact test on pass counts).
    case passRate(place: CheckPlace)
    /// A gated metric of `suite` (its typical turn).
    case metric(suite: String, metric: Metric)

    /// Where a check sits: suite, conversation, 1-based turn (nil for a conversation-level check)
    /// and 1-based position among that turn's checks, as `CheckChange` names it.
    public struct CheckPlace: Hashable, Codable, Sendable {
        public var suite: String
        public var conversation: String
        public var turn: Int?
        public var position: Int
        public var check: String

        public init(suite: String, conversation: String, turn: Int?, position: Int, check: String) {
            self.suite = suite
            self.conversation = conversation
            self.turn = turn
            self.position = position
            self.check = check
        }

        var label: String {
            "\(suite)/\(conversation)" + (turn.map { " turn \($0)" } ?? "") + " check \(position) (\(check))"
        }
    }

    /// Decided by facts (one repetition, no error rate spent).
    public var isExact: Bool {
        switch self {
        case .ledger, .exactCheck: true
        case .passRate, .metric: false
        }
    }

    /// The suite a probe for this signal has to replay.
    public var suite: String {
        switch self {
        case .ledger(let suite), .metric(let suite, _): suite
        case .exactCheck(let place), .passRate(let place): place.suite
        }
    }

    /// Chasing order: exact facts first (cheapest), then pass rates (failures before timings, as
    /// Pinpoint orders them), then metrics.
    var rank: Int {
        switch self {
        case .ledger: 0
        case .exactCheck: 1
        case .passRate: 2
        case .metric: 3
        }
    }

    public static func < (a: BisectSignal, b: BisectSignal) -> Bool {
        (a.rank, a.description) < (b.rank, b.description)
    }

    public var description: String {
        switch self {
        case .ledger(let suite): "\(suite): exact work ledger"
        case .exactCheck(let place): "\(place.label): verdict on exact answers"
        case .passRate(let place): "\(place.label): pass rate"
        case .metric(let suite, let metric): "\(suite): \(metric.name)"
        }
    }
}
