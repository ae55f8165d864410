import ChatEvalRuntime
import Foundation
import Testing

/// Peak memory per turn and per phase: each window has its own peak.
@Suite struct PeakMemoryWindowTests {
    /// Allocates and touches `bytes`, then frees them (a large block goes back to the kernel).
    private func touch(_ bytes: Int) {
        let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 4096)
        for offset in stride(from: 0, to: bytes, by: 4096) { block.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        block.deallocate()
    }

    /// Memory allocated in one window (a turn) shows in its peak and not in the next one's. Other
    /// tests run in this process meanwhile (windows exclude each other, allocations do not), so
    /// the margins are wide: 512 MiB allocated, a drop of at least 256 MiB required.
    @Test func aWindowsPeakDoesNotCarryIntoTheNext() throws {
        let baseline = try #require(ProcessMemory.residentBytes())
        let window = PeakMemoryWindow()
        touch(512 << 20)
        let firstPeak = window.close(), secondPeak = window.close()
        window.finish()
        let first = try #require(firstPeak), second = try #require(secondPeak)
        #expect(first >= baseline + (480 << 20))
        #expect(second < first - (256 << 20))
    }
}
