/// What the machine was doing as a run started and while it ran.
public struct RunEnvironment: Codable, Sendable, Hashable {
    /// Sampled for at least half a second before the first turn (the model loading meanwhile).
    public var start: MachineLoad
    /// Sampled over the whole run, from its first turn to its last (`seconds` set); in records
    /// written before 2026-11-30 (`seconds` nil), over the half second after the run.
    public var end: MachineLoad?

    public init(start: MachineLoad, end: MachineLoad? = nil) {
        self.start = start
        self.end = end
    }
}
