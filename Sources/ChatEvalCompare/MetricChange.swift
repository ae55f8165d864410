import ChatEvalCore

/// One metric compared, over a suite (its replays, each conversation compared with itself) or one turn.
public struct MetricChange: Codable, Sendable {
    public var metric: Metric
    /// Medians of the turns' values on each side (the level a reader knows the metric by).
    public var baseMedian: Double?
    public var headMedian: Double?
    /// A typical turn on each side: over the turns measured on both, the per-turn medians'
    /// geometric mean (arithmetic for ratios) — the level `change` estimates a change of, so
    /// head ÷ base − 1 lands near `change` where pooled medians need not. Reports show these.
    public var baseTypical: Double?
    public var headTypical: Double?
    /// Replays compared on each side (the units of the test: a replay's turns share the
    /// machine's state, so they count once).
    public var baseCount: Int
    public var headCount: Int
    public var scale: ChangeScale
    /// The estimated change (Hodges-Lehmann, of a replay's typical value), with its interval at
    /// the look's confidence (an end is infinite when the samples cannot bound it).
    public var change: Double?
    public var changeLower: Double?
    public var changeUpper: Double?
    /// Two-sided p-value of "no change", and after Holm's adjustment over the testable family;
    /// `adjustedPValue` is absent for a test that could not reach the family's level at all.
    public var pValue: Double?
    public var adjustedPValue: Double?
    /// The smallest p-value these values could have given (Tarone's rule leaves out a test
    /// whose smallest p-value cannot reach the family's level).
    public var minimumPValue: Double?
    /// The practical threshold in the same scale as `change`.
    public var threshold: Double?
    /// A metric's verdict: never flaky or undecided (those are counts').
    public var verdict: ChangeVerdict
    /// For `underpowered`: about how many repetitions per side would decide (see `RepetitionForecast`).
    public var repetitionsNeeded: Int?
    /// The spread (standard deviation) of one replay's value within its conversation and side,
    /// on the compared scale (log for relative changes: 0.05 ≈ 5%), and the conversations
    /// compared: the noise a forecast and `chateval calibrate` work from.
    public var replaySpread: Double?
    public var strata: Int?
    /// Why the verdict is what it is, in one clause.
    public var reason: String
    /// For separately recorded runs: the smallest change toward worse (relative, as `change`:
    /// +0.157 for a time, −0.2 for a rate) that this comparison could call here — the run-to-run
    /// spread with its heavy tail and this comparison's own within-run error, at the family's
    /// rate shared by the run term's tests. Infinite when the replays cannot bound a change; nil
    /// for a paired run, a metric without a run-level term (and in comparisons written before it).
    public var runFloor: Double?

    /// The levels reports show beside `change`: the typical turns, else (older files) the medians.
    public var baseLevel: Double? { baseTypical ?? baseMedian }
    public var headLevel: Double? { headTypical ?? headMedian }

    public init(
        metric: Metric, baseMedian: Double?, headMedian: Double?, baseCount: Int, headCount: Int, scale: ChangeScale,
        verdict: ChangeVerdict, reason: String
    ) {
        self.metric = metric
        self.baseMedian = baseMedian
        self.headMedian = headMedian
        self.baseCount = baseCount
        self.headCount = headCount
        self.scale = scale
        self.verdict = verdict
        self.reason = reason
    }

    /// The change is bad news given the metric's polarity.
    public var isWorse: Bool {
        guard let change else { return false }
        return metric.polarity == .smallerIsBetter ? change > 0 : change < 0
    }
}
