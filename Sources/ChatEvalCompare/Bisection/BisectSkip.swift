/// State `state` cannot be measured — its build failed — and is passed over like `git bisect
/// skip`: the search takes the measurable state nearest the middle instead, and a culprit range
/// that only such states separate is named as such, not narrowed by guessing. The ends cannot be
/// skipped: a skip of either is thrown on.
public struct BisectSkip: Error, Sendable {
    public var state: Int
    public var reason: String
    /// True when measuring the state again would fail the same way (its build failed): a resumed
    /// bisection skips it from its journal. False for what may pass another time (a server that
    /// did not answer in time, a scratch tree that could not be written).
    public var isLasting: Bool

    public init(state: Int, reason: String, isLasting: Bool = false) {
        self.state = state
        self.reason = reason
        self.isLasting = isLasting
    }
}
