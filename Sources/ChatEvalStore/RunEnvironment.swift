/// What the machine was doing when a run started and ended.
public struct RunEnvironment: Codable, Sendable, Hashable {
    public var start: MachineLoad
    public var end: MachineLoad?

    public init(start: MachineLoad, end: MachineLoad? = nil) {
        self.start = start
        self.end = end
    }
}
