/// What a bisection found of one signal.
public struct SignalFinding: Codable, Sendable {
    public var signal: BisectSignal
    /// The good commit against the bad one.
    public var endpoints: SignalReading
    /// First culprit first; a second when the range holds two steps.
    public var culprits: [BisectCulprit]
    /// Where a probe could not decide: the step lies after state `after` and at or before state
    /// `through`, and the probe of `probed` is named, not guessed.
    public var undecided: [UndecidedRange]
    /// What the checks beside a culprit found ("no further step after 3f2a1c0").
    public var notes: [String]

    public init(signal: BisectSignal, endpoints: SignalReading) {
        self.signal = signal
        self.endpoints = endpoints
        culprits = []
        undecided = []
        notes = []
    }
}
