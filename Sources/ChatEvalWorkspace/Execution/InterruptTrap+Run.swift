import ChatEvalRuntime
import Synchronization

extension InterruptTrap {
    /// What a trapped run returned, and whether a second signal stopped it at once.
    package struct Trapped<Value: Sendable>: Sendable {
        package var value: Value
        package var stoppedAtOnce: Bool
    }

    /// Runs `body` in a task with SIGINT and SIGTERM trapped for as long as it runs: the first
    /// signal asks `stop` to end after the turn in progress and cancels the task when its grace
    /// runs out (the run still ends as interrupted, not stopped at once); the second cancels it at
    /// once and `stoppedAtOnce` says so. What `body` throws is thrown.
    package static func run<Value: Sendable>(
        stop: StopRequest, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Trapped<Value> {
        let task = Task { try await body() }
        let stoppedAtOnce = Atomic<Bool>(false)
        let trap = InterruptTrap(
            stop: stop, expire: { task.cancel() },
            cancel: {
                stoppedAtOnce.store(true, ordering: .relaxed)
                task.cancel()
            })
        defer { withExtendedLifetime(trap) {} }
        let value = try await task.value
        return Trapped(value: value, stoppedAtOnce: stoppedAtOnce.load(ordering: .relaxed))
    }
}
