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
    /// For an exact probe: what its comparison could speak to, so that an exact signal it saw no
    /// change of reads `same` only where it compared the turns exactly.
    public var exactScope: ExactScope?
    /// For the ends compared in rounds: what their comparison says beside the readings, for a
    /// bisection that finds nothing to chase — the settings the commits differ in, what is
    /// better at the bad end, how busy the machine was (`BisectReadings.endpointNotes`).
    public var notes: [String]?

    /// `notes` as a line's tail, " (a; b)", or "" when there are none.
    public var notesInParentheses: String { notes.map { " (" + $0.joined(separator: "; ") + ")" } ?? "" }

    public init(readings: [SignalReading], repetitions: Int, seconds: Double, results: [String] = [], resumed: Bool = false) {
        self.readings = readings
        self.repetitions = repetitions
        self.seconds = seconds
        self.results = results
        self.resumed = resumed
    }

    /// The reading of `signal`: as reported; for an exact signal an exact probe did not report,
    /// `same` only within what it compared exactly (`ExactScope`); otherwise undecided — a probe
    /// that did not compare a signal never reads "same".
    public func reading(of signal: BisectSignal) -> SignalReading {
        if let reported = readings.first(where: { $0.signal == signal }) { return reported }
        if signal.isExact, let exactScope { return exactScope.reading(of: signal, changed: readings) }
        return SignalReading(signal: signal, side: .undecided, detail: "the probe did not compare it")
    }
}
