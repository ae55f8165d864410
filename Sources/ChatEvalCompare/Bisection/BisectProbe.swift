/// One comparison a bisection asks for: state `head` against state `base` (indices into the
/// bisection's states, base earlier).
public struct BisectProbe: Hashable, Codable, Sendable {
    public enum Kind: Hashable, Codable, Sendable {
        /// The good and bad commits themselves, interleaved in rounds at the gate's settings with
        /// `errorRate` as the whole comparison's false-alarm rate: every signal that differs.
        case endpoints(errorRate: Double)
        /// One greedy repetition of each side: the exact signals (ledgers, checks on exact answers).
        case exact
        /// `signal` alone, interleaved in rounds at `errorRate`: a metric against `threshold`
        /// (relative: half the change the endpoints showed, at most their interval's near end, and
        /// never below the gate's own threshold), a pass rate by Fisher's exact test.
        case paired(signal: BisectSignal, threshold: Double?, errorRate: Double)
    }

    public var base: Int
    public var head: Int
    public var kind: Kind

    public init(base: Int, head: Int, kind: Kind) {
        self.base = base
        self.head = head
        self.kind = kind
    }
}

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

/// What a probe measured: its readings (for `.endpoints`, every signal that differs or could
/// not be decided; for `.exact`, every exact signal that differs; for `.paired`, its signal),
/// the repetitions per side and seconds it took, and where its runs are recorded.
public struct BisectProbeResult: Codable, Sendable {
    public var readings: [SignalReading]
    public var repetitions: Int
    public var seconds: Double
    /// Result files of the probe's runs.
    public var results: [String]
    /// Read back from an earlier, interrupted bisection instead of measured again.
    public var resumed: Bool

    public init(readings: [SignalReading], repetitions: Int, seconds: Double, results: [String] = [], resumed: Bool = false) {
        self.readings = readings
        self.repetitions = repetitions
        self.seconds = seconds
        self.results = results
        self.resumed = resumed
    }

    /// The reading of `signal`; a probe that did not report it saw no change of it.
    public func reading(of signal: BisectSignal) -> SignalReading {
        readings.first { $0.signal == signal } ?? SignalReading(signal: signal, side: .same, detail: "no difference")
    }
}

/// Measures probes for a `Bisector`. Contract: `probe` compares the states as `BisectProbe.Kind`
/// says and reports only what it measured; it throws `BisectInterruption` when stopped (the
/// probe in progress is then not reported and is measured again on resuming), `BisectSkip` when
/// one of the two states cannot be measured, and any other error when the probe cannot be
/// measured at all.
public protocol BisectProber: Sendable {
    func probe(_ probe: BisectProbe) async throws -> BisectProbeResult
}

/// State `state` cannot be measured — its build failed — and is passed over like `git bisect
/// skip`: the search takes the measurable state nearest the middle instead, and a culprit range
/// that only such states separate is named as such, not narrowed by guessing. The ends cannot be
/// skipped: a skip of either is thrown on.
public struct BisectSkip: Error, Sendable {
    public var state: Int
    public var reason: String

    public init(state: Int, reason: String) {
        self.state = state
        self.reason = reason
    }
}

/// A bisection stopped by the user (Ctrl-C) or a time limit: the probes finished before are kept.
public struct BisectInterruption: Error, Sendable {
    public init() {}
}
