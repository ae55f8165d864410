import Foundation
import Testing

/// For a suite that keeps every core busy (it loads a model, or starts chateval or llama-server):
/// it runs alone among such suites. Two llama.cpp thread teams on the same two cores do not each
/// run at half speed: their spinning workers wait on each other, and a suite that takes 10 s alone
/// took 100 s beside another (a fresh `make test`, 2026-11-26). Suites without the trait still
/// run beside them.
///
/// The lock is the suite's, not each test's, and measured so (`CHATEVAL_CORE_LOCK_LOG`, 2-core
/// AMD EPYC, 2026-11-29): the suites' held times add up to the whole run, so they are its
/// critical path. The first to take it runs beside the burst of quick tests and is slowed far
/// more than a busy machine explains: the llama-server suite's test, 2–6 s alone and 10.7 s beside
/// two busy processes, took 195 and 225 s (likely its async work waiting for the test process's
/// two cooperative threads, which the quick tests' synchronous work holds — not yet shown). Per
/// suite, the model suites after it then run on a quieter machine: 645 and 670 s of tests. Taken
/// per test, the first test to take it was the MLX server test (71 s alone; 263 and 278 s): 657
/// and 699 s.
public struct UsesAllCores: SuiteTrait, TestScoping {
    public var isRecursive: Bool { false }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let asked = ContinuousClock.now
        await CoreLock.shared.acquire()
        let granted = ContinuousClock.now
        defer { Self.log(test.name, waited: granted - asked, held: ContinuousClock.now - granted) }
        do {
            try await function()
        } catch {
            await CoreLock.shared.release()
            throw error
        }
        await CoreLock.shared.release()
    }

    /// With `CHATEVAL_CORE_LOCK_LOG` set to a file, one line a suite — its name, seconds it waited
    /// for the cores and seconds it held them — appended: where a `make test` spends its serial
    /// time (the suites holding the lock run one at a time, so their held times add up).
    private static func log(_ name: String, waited: Duration, held: Duration) {
        guard let path = ProcessInfo.processInfo.environment["CHATEVAL_CORE_LOCK_LOG"], !path.isEmpty else { return }
        func seconds(_ duration: Duration) -> String {
            String(format: "%.1f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        }
        let line = "\(name)\twaited \(seconds(waited)) s\theld \(seconds(held)) s\n"
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data(line.utf8))
        try? handle.close()
    }
}

extension Trait where Self == UsesAllCores {
    /// See `UsesAllCores`.
    public static var usesAllCores: Self { UsesAllCores() }
}
