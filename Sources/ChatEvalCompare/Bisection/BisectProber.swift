/// Measures probes for a `Bisector`. Contract: `probe` compares the states as `BisectProbe.Kind`
/// says and reports only what it measured; it throws `BisectInterruption` when stopped (the
/// probe in progress is then not reported and is measured again on resuming), `BisectSkip` when
/// one of the two states cannot be measured, and any other error when the probe cannot be
/// measured at all.
public protocol BisectProber: Sendable {
    func probe(_ probe: BisectProbe) async throws -> BisectProbeResult
}
