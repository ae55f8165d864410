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
