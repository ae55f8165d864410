import ChatEvalCore

/// How busy the machine was while each side was measured.
public struct LoadComparison: Codable, Sendable, Hashable {
    public var base: SideLoad
    public var head: SideLoad
    /// Set when the sides were measured under clearly different load (the mean load of all their
    /// replays, kept or left out, differs by more than `LoadComparison.imbalance` cores): their
    /// timings carry different noise.
    public var warning: String?
    /// The busy threshold every replay was screened at, one by one (runs not of one paired job);
    /// nil when the pairing screened them (or `busy_threshold: off`, or in comparisons written
    /// before it).
    public var screenedAt: Double?

    /// A difference in mean load, in cores, that makes the sides' noise differ.
    public static let imbalance = 0.25

    public init(base: SideLoad, head: SideLoad) {
        self.base = base
        self.head = head
        if let b = base.meanOtherCores, let h = head.meanOtherCores, abs(b - h) > Self.imbalance {
            warning = String(
                format:
                    "base was measured while other processes used %.2f cores on average, head %.2f: their timings carry different noise", b,
                h)
        }
    }
}
