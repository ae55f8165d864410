/// A commit named as the one where a signal stepped.
public struct BisectCulprit: Codable, Sendable {
    /// Index into the states.
    public var state: Int
    /// The probe that showed the step: the culprit against a state before it that is like the
    /// good commit (its index), with the change it measured.
    public var comparedWith: Int
    public var reading: SignalReading
}
