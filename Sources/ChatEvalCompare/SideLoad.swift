import ChatEvalCore

/// The load one side's replays were measured under.
public struct SideLoad: Codable, Sendable, Hashable {
    /// Measured replays with a load reading.
    public var sampled: Int
    /// Replays left out because other processes held the cores while they ran.
    public var leftOut: Int
    /// Replays re-measured for that reason (their first measurement is kept in the record, marked).
    public var remeasured: Int
    /// Mean load of every measured replay, kept or left out, in cores used by other processes;
    /// nil without readings.
    public var meanOtherCores: Double?

    public init(sampled: Int, leftOut: Int, remeasured: Int, meanOtherCores: Double?) {
        self.sampled = sampled
        self.leftOut = leftOut
        self.remeasured = remeasured
        self.meanOtherCores = meanOtherCores
    }
}
