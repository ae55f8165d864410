/// The smallest change of a metric that matters in practice: a change must exceed both the
/// relative and the absolute bound to count as a regression or improvement (5% of a 3 ms
/// inter-token gap is noise; 2 ms of a 2 s answer is too).
public struct MetricThreshold: Codable, Sendable, Hashable {
    /// Fraction of the base median (0.05 = 5%).
    public var relative: Double
    /// In the metric's unit (seconds, tokens/s, bytes, ratio points).
    public var absolute: Double

    public init(relative: Double, absolute: Double) {
        self.relative = relative
        self.absolute = absolute
    }

    /// The threshold as a fraction of `base`: whichever bound is larger.
    public func relativeBound(atBase base: Double) -> Double {
        base > 0 ? max(relative, absolute / base) : relative
    }
}
