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
/// critical path. The first suite takes the lock at once, but its test waits to start: Swift
/// Testing runs at most twice as many test cases as there are cores at once, in the order they
/// ask, behind the quick tests (the llama-server suite held it 210 s, its test starting after
/// 179 s and running 31 s). The quick tests keep both cores busy meanwhile, so the wait costs
/// nothing, and the model suites after them run on a quiet machine. Taken per test, the first
/// test to take it (the MLX server test, 71 s alone) ran through the quick tests in 263 and
/// 278 s: 657 and 699 s of tests against 645 and 670 s. Run side by side in two processes, the
/// two sets took 700 s, against 608 s for each alone added (the run tests' suite 297 s, 91 s alone):
/// llama.cpp's spinning threads lose far more than their share beside busy cores.
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
