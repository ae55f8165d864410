import Foundation
import Synchronization

/// The one thread that makes every llama.cpp call of the process — loading, warm-up, turns,
/// freeing — for every runtime in it.
///
/// Why one thread: llama.cpp here computes with OpenMP, and OpenMP keeps a team of worker threads
/// per thread that calls into it. Calls from several threads (a load on the caller's thread, turns
/// on dispatch-queue threads that vary, a second model for a baseline) make several teams, so
/// OpenMP manages more threads than there are cores; it then stops letting idle workers spin
/// (libgomp's GOMP_SPINCOUNT drops to 1,000), and every decoded token pays for waking them with a
/// futex. With all calls on one thread there is one team, whose workers spin between tokens as
/// they do under llama-bench. It also keeps the non-reentrant llama.cpp context on a single
/// thread, with no lock, which is the serial access `LlamaChatRuntime` relies on.
final class LlamaThread: Sendable {
    /// The process's llama.cpp thread, started on first use and kept for the process's life.
    static let shared = LlamaThread()

    private let work = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                guard let next = work.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                next()
            }
        }
        thread.name = "chateval.llama"
        thread.qualityOfService = .userInitiated
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// Runs `body` on the llama.cpp thread after everything submitted before it; returns at once.
    func async(_ body: @escaping @Sendable () -> Void) {
        work.withLock { $0.append(body) }
        ready.signal()
    }

    /// Runs `body` on the llama.cpp thread and waits for its result (for set-up and tear-down
    /// from synchronous code; never call it from the llama.cpp thread itself).
    func sync<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) throws(E) -> T {
        let result = Mutex<Result<T, E>?>(nil)
        let done = DispatchSemaphore(value: 0)
        async {
            let outcome = Result { () throws(E) -> T in try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Runs `body` on the llama.cpp thread and resumes the caller with its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            async { continuation.resume(returning: body()) }
        }
    }
}
