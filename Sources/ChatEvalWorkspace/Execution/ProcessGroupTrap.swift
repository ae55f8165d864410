import ChatEvalRunner
import Foundation

/// SIGINT and SIGTERM while a bisection builds and serves commits (`--build`, `--serve`): the
/// build or server in progress cannot finish "its turn" the way an in-process run does (a build
/// may hang), so the first signal ends every process group ChatEval started (`ProcessGroup.endAll`:
/// TERM, then KILL after the grace) and exits with the conventional status, 128 + the signal
/// (130, 143). A second signal while they end kills them at once. Finished probes are already in
/// the journal (written after each one): the same command resumes. While the trap is held the
/// signals' default action is ignored (`SIG_IGN`) and delivered to dispatch sources instead;
/// releasing it restores the handling they had.
package final class ProcessGroupTrap {
    private let sources: [any DispatchSourceSignal]
    private let previous: [(signal: Int32, handler: __sighandler_t?)]
    private let count: SignalCount

    /// True once a signal came: the process is about to exit with its status.
    package var hasFired: Bool { count.add(0).after > 0 }

    /// `note` is what the first signal prints (where the finished probes are kept).
    package init(note: String) {
        let count = SignalCount()
        self.count = count
        var previous: [(Int32, __sighandler_t?)] = []
        sources = [SIGINT, SIGTERM].map { number in
            previous.append((number, signal(number, SIG_IGN)))
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // Signals arriving together come as one event: `data` says how many there were.
                let before = count.add(Int(source.data)).before
                // Off the source's queue, so that a second signal is handled while the first waits.
                DispatchQueue.global().async {
                    if before == 0 {
                        FileHandle.standardError.write(
                            Data("\nchateval: interrupted — ending the build and servers it started (again: kill them now); \(note)\n".utf8)
                        )
                        ProcessGroup.endAll()
                    } else {
                        ProcessGroup.endAll(grace: 0)
                    }
                    fflush(nil)  // every stream: what print() left buffered
                    _exit(128 + number)
                }
            }
            source.resume()
            return source
        }
        self.previous = previous
    }

    /// When a signal came, waits for the exit it is making (the bisection, its groups ended under
    /// it, may return first: it must not exit with another status); returns at once otherwise.
    package func awaitExitIfFired() async {
        while hasFired { try? await Task.sleep(nanoseconds: 1_000_000_000) }
    }

    deinit {
        sources.forEach { $0.cancel() }
        for (number, handler) in previous { signal(number, handler) }
    }
}
