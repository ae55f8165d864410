import ChatEvalCore
import ChatEvalRuntime
import Foundation
import Synchronization
import Testing

/// `ProcessMemory.heapOfThisThread`: the mapping it names is where the thread's allocations go,
/// which is what lets `MemoryAttribution` count llama.cpp's thread's heap as the engine's.
@Suite struct ThreadHeapTests {
    /// Runs `body` on a thread of its own (not one of Swift's pool, which other tests share).
    private func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.withLock { $0 = body() }
            done.signal()
        }
        thread.start()
        done.wait()
        return result.withLock { $0! }
    }

    /// The probe names the mapping that holds the blocks the thread allocates next; or nil, and
    /// then they are in the main heap (glibc hands a thread the main heap when it has made as
    /// many heaps as it will: 8 per core).
    @Test func theNamedMappingHoldsWhatTheThreadAllocatesNext() throws {
        #if os(Linux)
            let (heap, holders) = onNewThread { () -> (Range<UInt64>?, [MemoryAttribution.Mapping?]) in
                let heap = ProcessMemory.heapOfThisThread()
                // Sizes glibc serves from the thread's heap (below its 128 KiB mmap threshold).
                let blocks = [2048, 4096, 20000].map { malloc($0)! }
                defer { blocks.forEach { free($0) } }
                let mappings = ProcessMemory.mappings()
                return (
                    heap,
                    blocks.map { block in
                        let address = UInt64(UInt(bitPattern: block))
                        return mappings.first { $0.start <= address && address < $0.start + UInt64($0.size) }
                    }
                )
            }
            #expect(holders.count == 3)
            for holder in holders {
                let mapping = try #require(holder, "every block lies in a mapping of the process")
                if let heap {
                    // Overlapping, as `MemoryAttribution` matches it, not starting at the same
                    // address: the kernel may merge the heap with an anonymous mapping next to it
                    // (a thread's stack) or split it as glibc grows it. This compared starts,
                    // and failed once in a full `make test` (2026-12-01, a fresh clone).
                    #expect(mapping.range.overlaps(heap) && mapping.path.isEmpty)
                } else {
                    #expect(mapping.path == "[heap]")
                }
            }
        #endif
    }
}
