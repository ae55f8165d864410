/// A bisection stopped by the user (Ctrl-C) or a time limit: the probes finished before are kept.
public struct BisectInterruption: Error, Sendable {
    public init() {}
}
