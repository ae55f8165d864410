/// A range a probe could not narrow.
public struct UndecidedRange: Codable, Sendable {
    public var after: Int
    public var through: Int
    public var probed: Int
    public var reading: SignalReading
}
