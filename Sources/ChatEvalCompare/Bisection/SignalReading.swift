/// What a probe found of one signal: the head changed in the bad direction relative to the
/// base, stayed the same, or the probe could not tell within its budget.
public struct SignalReading: Codable, Sendable, Hashable {
    public enum Side: String, Codable, Sendable {
        /// The head differs from the base the way the bad commit does: the step is at or before it.
        case changed
        /// Decided not changed (within the threshold, or identical facts): the step is after it.
        case same
        /// Neither, within the probe's repetitions or time: never guessed.
        case undecided
    }

    public var signal: BisectSignal
    public var side: Side
    /// The estimated change (relative for metrics: 0.1 = 10% worse) and its interval at the
    /// probe's confidence; nil for facts.
    public var change: Double?
    public var lower: Double?
    public var upper: Double?
    /// What was seen, in a clause ("evaluated 35 → 39 (+4)", "2/2 → 0/2 passed", "p = 0.0004").
    public var detail: String

    public init(signal: BisectSignal, side: Side, change: Double? = nil, lower: Double? = nil, upper: Double? = nil, detail: String) {
        self.signal = signal
        self.side = side
        self.change = change
        self.lower = lower
        self.upper = upper
        self.detail = detail
    }
}
