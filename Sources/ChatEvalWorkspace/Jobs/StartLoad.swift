import ChatEvalStore
import Synchronization

/// How busy the machine is as a run starts: sampled from the job's start until first asked for,
/// and for at least half a second, so that the wait overlaps loading the model instead of
/// adding to it (other processes only are counted: the load's own work is not). Read once; every
/// later read returns the same load.
final class StartLoad: Sendable {
    /// The shortest sample: below it, a core's ticks (1/100 s) are too coarse to tell a quarter
    /// of a core (the busy threshold) from noise.
    static let minimumSeconds = 0.5

    private let sample = MachineLoad.Sample.begin()
    private let measured = Mutex<MachineLoad?>(nil)

    /// The load, and whether this call measured it (the first does).
    func load() -> (load: MachineLoad, first: Bool) {
        measured.withLock { measured in
            if let measured { return (measured, false) }
            let load = sample.load(atLeast: Self.minimumSeconds)
            measured = load
            return (load, true)
        }
    }
}
