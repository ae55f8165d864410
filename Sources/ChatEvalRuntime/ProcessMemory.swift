import Foundation

/// Peak resident memory of this process (Linux `VmHWM`), with a reset so that each turn, and each
/// phase of a turn, gets its own peak.
public enum ProcessMemory {
    /// The high-water mark of resident memory in bytes, or nil where /proc is not available.
    public static func peakResidentBytes() -> Int? {
        statusField("VmHWM:")
    }

    /// Current resident memory in bytes (`VmRSS`), or nil where /proc is not available.
    public static func residentBytes() -> Int? {
        statusField("VmRSS:")
    }

    /// Resets the high-water mark to the current resident size (writes 5 to /proc/self/clear_refs).
    /// Returns false when the kernel does not allow it; the peak then covers the process lifetime.
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    private static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            // "VmHWM:	  412345 kB"
            let fields = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let kilobytes = fields.first.flatMap({ Int($0) }) else { return nil }
            return kilobytes * 1024
        }
        return nil
    }
}
