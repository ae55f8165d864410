/// Seconds elapsed since a start, on the monotonic clock (immune to wall-clock changes).
public struct Stopwatch: Sendable {
    private let start: ContinuousClock.Instant

    public init() { start = .now }

    public var elapsed: Double { (ContinuousClock.now - start).seconds }
}

extension Duration {
    /// This duration in seconds.
    public var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}
