import Dispatch
import Synchronization

/// CPU-bound work spread over the machine's cores, results kept in order: how `chateval grade`
/// grades an answers file or a recorded run, conversation by conversation (each is graded on its
/// own: its checks, answers and regex budget are its own, and what checks share — compiled
/// patterns, checks built once — sits behind locks).
///
/// Not used while a run replays: llama.cpp holds the cores then, and a replay is graded as it
/// ends, between two conversations.
package enum OrderedConcurrentMap {
    /// `transform` of each of `items`, in their order, computed on up to `threads` threads; on
    /// one thread (or for fewer than two items) a plain `map`. Items are claimed one at a time,
    /// so a slow item does not leave the other threads idle.
    package static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], threads: Int, _ transform: @Sendable (Item) -> Result
    ) -> [Result] {
        let threads = min(threads, items.count)
        guard threads > 1 else { return items.map(transform) }
        let slots = Slots<Result>(count: items.count)
        let next = Atomic<Int>(0)
        items.withUnsafeBufferPointer { buffer in
            let items = UncheckedBuffer(buffer: buffer)
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < items.buffer.count else { return }
                    slots.store(transform(items.buffer[index]), at: index)
                }
            }
        }
        return slots.results()
    }

    /// One write per index, each by one thread; read once every thread has finished
    /// (`concurrentPerform` returns after all iterations, which orders their writes before the read).
    private final class Slots<Result>: @unchecked Sendable {
        private let storage: UnsafeMutableBufferPointer<Result?>
        /// True once `results()` has moved the results out, leaving the slots uninitialised.
        private var movedOut = false

        init(count: Int) {
            storage = .allocate(capacity: count)
            storage.initialize(repeating: nil)
        }
        deinit {
            if !movedOut { storage.deinitialize() }
            storage.deallocate()
        }

        func store(_ result: Result, at index: Int) { storage[index] = result }

        /// The results, moved out of the slots rather than copied (a copy retained every
        /// record's strings and arrays, and freeing the slots released them again). Called once.
        func results() -> [Result] {
            precondition(!movedOut, "OrderedConcurrentMap: results taken twice")
            movedOut = true
            return storage.indices.map { index in
                guard let result = storage.moveElement(from: index) else {
                    preconditionFailure("OrderedConcurrentMap: an item was left without a result")
                }
                return result
            }
        }
    }

    /// The items' buffer, read (never written) by every thread while `map` waits for them.
    private struct UncheckedBuffer<Item>: @unchecked Sendable { let buffer: UnsafeBufferPointer<Item> }
}
