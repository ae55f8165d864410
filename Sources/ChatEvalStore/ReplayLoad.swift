/// How busy the machine was while one replay ran: the processor time every other process used
/// over the replay's wall-clock time. Read from /proc/stat and /proc/self/stat before and after
/// (two small reads, no sleeping), so every replay of every run gets one.
public struct ReplayLoad: Codable, Sendable, Hashable {
    /// Cores used by other processes on average over the replay (1.0 = one core busy).
    public var otherCores: Double
    /// The replay's wall-clock seconds.
    public var seconds: Double

    public init(otherCores: Double, seconds: Double) {
        self.otherCores = otherCores
        self.seconds = seconds
    }

    /// True when other processes used `MachineLoad.busyThreshold` of a core or more.
    public var isBusy: Bool { otherCores >= MachineLoad.busyThreshold }
}
