import ChatEvalCore
import Foundation
import Synchronization
internal import Yams

/// Runs work on a thread with a 1 GiB stack (address space reserved, not memory used) and waits.
enum LargeStack {
    static let bytes = 1 << 30

    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        thread.stackSize = bytes
        thread.start()
        done.wait()
        return result.withLock { $0! }
    }
}
