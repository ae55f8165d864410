/// A step's change after − before, and its 95% interval.
public struct StepChange: Sendable, Hashable, Codable {
    public var estimate: Double
    public var lower: Double
    public var upper: Double

    public init(estimate: Double, lower: Double, upper: Double) {
        self.estimate = estimate
        self.lower = lower
        self.upper = upper
    }
}
