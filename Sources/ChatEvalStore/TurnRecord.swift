import ChatEvalCore

/// One turn as a result file records it: the replayed turn (what was sent, answered and
/// measured) and, once graded, its checks' verdicts.
///
/// On disk the two are one flat object (`index`, `user`, ..., `metrics`, `checks`, `score`), so
/// the file format does not show how the program splits them.
public struct TurnRecord: Codable, Sendable, Hashable {
    public var replayed: ReplayedTurn
    /// Verdicts of the turn's checks; nil when the turn has none or is not graded yet.
    public var checks: [Verdict]?
    /// Weighted pass rate of `checks`.
    public var score: Double?

    public init(_ replayed: ReplayedTurn, checks: [Verdict]? = nil, score: Double? = nil) {
        self.replayed = replayed
        self.checks = checks
        self.score = score
    }

    public var index: Int { replayed.index }
    public var user: String { replayed.user }
    public var status: ReplayedTurn.Status { replayed.status }
    public var answer: String? { replayed.answer }
    public var metrics: TurnMetrics? {
        get { replayed.metrics }
        set { replayed.metrics = newValue }
    }
    public var failure: RuntimeFailure? { replayed.failure }
    public var skipReason: String? { replayed.skipReason }

    private enum GradingKeys: String, CodingKey { case checks, score }

    public init(from decoder: any Decoder) throws {
        replayed = try ReplayedTurn(from: decoder)
        let container = try decoder.container(keyedBy: GradingKeys.self)
        checks = try container.decodeIfPresent([Verdict].self, forKey: .checks)
        score = try container.decodeIfPresent(Double.self, forKey: .score)
    }

    public func encode(to encoder: any Encoder) throws {
        try replayed.encode(to: encoder)
        var container = encoder.container(keyedBy: GradingKeys.self)
        try container.encodeIfPresent(checks, forKey: .checks)
        try container.encodeIfPresent(score, forKey: .score)
    }
}

extension TurnRecord {
    /// True when the turn failed and no passing `failure` check said it would: what
    /// `max_failed_turns` counts and summaries call a failure.
    public var failedUnexpectedly: Bool {
        status == .failed && !(checks ?? []).contains { $0.check == Verdict.failureCheckType && $0.passed }
    }
}
