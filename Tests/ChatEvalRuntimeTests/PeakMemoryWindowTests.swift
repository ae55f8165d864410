import ChatEvalRuntime
import Foundation
import Testing

/// Peak memory per turn and per phase: each window has its own peak.
@Suite struct PeakMemoryWindowTests {
    /// Allocates and touches `bytes`, then frees them (a large block goes back to the kernel);
    /// returns the process's resident memory while they were touched.
    private func touch(_ bytes: Int) -> Int? {
        let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 4096)
        for offset in stride(from: 0, to: bytes, by: 4096) { block.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        defer { block.deallocate() }
        return ProcessMemory.residentBytes()
    }

    /// Memory allocated in one window (a turn) shows in its peak and not in the next one's. Other
    /// tests run in this process meanwhile (windows exclude each other, allocations do not): one
    /// that frees memory between the baseline and the touch made a peak of "baseline + 480 MiB"
    /// fail under load, so the peak is compared with the resident memory read while the block
    /// was touched, and the drop after it with a wide margin (512 MiB allocated, 256 required).
    @Test func aWindowsPeakDoesNotCarryIntoTheNext() throws {
        let window = PeakMemoryWindow()
        let touched = try #require(touch(512 << 20))
        let firstPeak = window.close(), secondPeak = window.close()
        window.finish()
        let first = try #require(firstPeak), second = try #require(secondPeak)
        // The kernel syncs its per-thread resident counters into VmHWM lazily (a few hundred KiB
        // apart were seen): 16 MiB of slack, against a 512 MiB block.
        #expect(first >= touched - (16 << 20), "the window's peak includes the block")
        #expect(second < first - (256 << 20))
    }
}
