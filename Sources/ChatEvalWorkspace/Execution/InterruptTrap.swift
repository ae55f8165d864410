import ChatEvalCore
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into an orderly stop. The first lets the turn in progress finish if
/// it does within `grace` seconds — else cancels it (a stalled served turn, a long prefill) —
/// writes what was measured and ends the run as incomplete (exit 3): a CI cancel (SIGTERM, then
/// SIGKILL some seconds later) finds the results written. The second cancels the turn in progress
/// at once and still writes what was measured (exit 130). A third ends the process at once (exit
/// 130; the journal keeps every finished turn for `recover`). When the trap is released, both
/// signals get back the handling they had.
package final class InterruptTrap {
    private let sources: [any DispatchSourceSignal]
    private let previous: [(signal: Int32, handler: __sighandler_t?)]

    /// Seconds the first signal leaves the turn in progress to finish.
    package static let grace = 1.0

    /// `cancel` is called by the second signal; `expire` when the first signal's grace runs out.
    package init(
        stop: StopRequest, grace: Double = InterruptTrap.grace, expire: @escaping @Sendable () -> Void = {},
        cancel: @escaping @Sendable () -> Void
    ) {
        let count = SignalCount()
        var previous: [(Int32, __sighandler_t?)] = []
        sources = [SIGINT, SIGTERM].map { number in
            previous.append((number, signal(number, SIG_IGN)))
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // Signals arriving together come as one event: `data` says how many there were.
                let (before, after) = count.add(Int(source.data))
                if before < 1 && after >= 1 {
                    stop.request()
                    FileHandle.standardError.write(
                        Data(
                            ("\nchateval: interrupted — finishing the current turn (at most \(Int(grace)) s), "
                                + "then writing the results (again: stop the turn now)\n")
                                .utf8))
                    DispatchQueue.global().asyncAfter(deadline: .now() + grace) { expire() }
                }
                if before < 2 && after >= 2 {
                    cancel()
                    FileHandle.standardError.write(
                        Data("\nchateval: stopping the current turn now, then writing the results (again: quit at once)\n".utf8))
                }
                if after >= 3 {
                    FileHandle.standardError.write(
                        Data(
                            "\nchateval: stopped at once; finished turns are in the journal (chateval recover turns it into a result)\n"
                                .utf8))
                    _exit(130)
                }
            }
            source.resume()
            return source
        }
        self.previous = previous
    }

    deinit {
        sources.forEach { $0.cancel() }
        for (number, handler) in previous { signal(number, handler) }
    }
}

/// Signals counted across dispatch sources (`InterruptTrap`, `ProcessGroupTrap`).
final class SignalCount: Sendable {
    private let value = Atomic<Int>(0)
    /// Adds `count` signals; returns the totals before and after.
    func add(_ count: Int) -> (before: Int, after: Int) {
        let after = value.add(count, ordering: .relaxed).newValue
        return (after - count, after)
    }
}
