/// One comparison a bisection asks for: state `head` against state `base` (indices into the
/// bisection's states, base earlier).
public struct BisectProbe: Hashable, Codable, Sendable {
    public enum Kind: Hashable, Codable, Sendable {
        /// The good and bad commits themselves, interleaved in rounds at the gate's settings with
        /// `errorRate` as the whole comparison's false-alarm rate: every signal that differs.
        case endpoints(errorRate: Double)
        /// One greedy repetition of each side: the exact signals (ledgers, checks on exact answers).
        case exact
        /// `signal` alone, interleaved in rounds at `errorRate`: a metric against `threshold`
        /// (relative: half the change the endpoints showed, at most their interval's near end, and
        /// never below the gate's own threshold), a pass rate by Fisher's exact test.
        case paired(signal: BisectSignal, threshold: Double?, errorRate: Double)
    }

    public var base: Int
    public var head: Int
    public var kind: Kind

    public init(base: Int, head: Int, kind: Kind) {
        self.base = base
        self.head = head
        self.kind = kind
    }
}
