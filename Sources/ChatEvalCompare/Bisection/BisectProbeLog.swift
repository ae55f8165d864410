/// A probe as a bisection ran it, in order.
public struct BisectProbeLog: Codable, Sendable {
    public var probe: BisectProbe
    public var result: BisectProbeResult
}
