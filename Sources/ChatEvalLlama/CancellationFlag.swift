import ChatEvalCore
import ChatEvalRuntime
import Synchronization

/// Set from any thread when the consumer of a turn goes away; read by the token loop.
final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func cancel() { value.store(true, ordering: .relaxed) }
    var isCancelled: Bool { value.load(ordering: .relaxed) }
}
