import Foundation

/// Peak resident memory over successive windows — the phases of a turn: `close()` returns the
/// peak since the window opened (or since the previous `close()`) and opens the next one;
/// `finish()` ends the last.
///
/// The peak is the process's (Linux VmHWM): everything it holds, the model and the KV cache
/// included, at the worst moment of the window. Because that figure and its reset belong to the
/// whole process, windows are exclusive: opening one waits until any other has finished, so that
/// two measurements never reset each other's peak. Where the kernel does not allow resetting the
/// peak, the figures are the process's peak so far.
public final class PeakMemoryWindow: @unchecked Sendable {
    private static let exclusive = NSLock()
    private var finished = false

    /// Opens the first window (waiting for any other to finish).
    public init() {
        Self.exclusive.lock()
        ProcessMemory.resetPeak()
    }

    deinit { finish() }

    /// The peak of the window now ending; opens the next.
    public func close() -> Int? {
        let peak = ProcessMemory.peakResidentBytes()
        ProcessMemory.resetPeak()
        return peak
    }

    /// Ends the measurement, letting other windows open. Idempotent; also done on release.
    public func finish() {
        guard !finished else { return }
        finished = true
        Self.exclusive.unlock()
    }
}
