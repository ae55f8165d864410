import Synchronization

/// A request to stop a run at the next turn boundary, settable from any thread (a signal
/// handler, a progress UI). The turn in progress finishes and is recorded; later turns are skipped.
public final class StopRequest: Sendable {
    private let requested = Atomic<Bool>(false)

    public init() {}

    public func request() { requested.store(true, ordering: .relaxed) }

    public var isRequested: Bool { requested.load(ordering: .relaxed) }
}
