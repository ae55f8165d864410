/// State `state` cannot be measured — its build failed — and is passed over like `git bisect
/// skip`: the search takes the measurable state nearest the middle instead, and a culprit range
/// that only such states separate is named as such, not narrowed by guessing. The ends cannot be
/// skipped: a skip of either is thrown on.
public struct BisectSkip: Error, Sendable {
    public var state: Int
    public var reason: String

    public init(state: Int, reason: String) {
        self.state = state
        self.reason = reason
    }
}
