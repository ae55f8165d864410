import Testing

/// For a suite that keeps every core busy (it loads a model, or starts chateval or llama-server):
/// it runs alone among such suites. Two llama.cpp thread teams on the same two cores do not each
/// run at half speed: their spinning workers wait on each other, and a suite that takes 10 s alone
/// took 100 s beside another (a fresh `make test`, 2026-11-26). Suites without the trait still
/// run beside them.
public struct UsesAllCores: SuiteTrait, TestScoping {
    public var isRecursive: Bool { false }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await CoreLock.shared.acquire()
        do {
            try await function()
        } catch {
            await CoreLock.shared.release()
            throw error
        }
        await CoreLock.shared.release()
    }
}

extension Trait where Self == UsesAllCores {
    /// See `UsesAllCores`.
    public static var usesAllCores: Self { UsesAllCores() }
}
