import ChatEvalCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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

    /// Returns the heap's free memory to the system (glibc's `malloc_trim`): memory a process
    /// freed (an earlier model's vocabulary, a checked model's tables) otherwise stays resident
    /// and counts in what is measured next. No effect where the C library has no such call.
    public static func releaseFreedMemory() {
        #if canImport(Glibc)
            // `malloc.h` is not in Glibc's Swift module: the call is looked up in the process.
            typealias MallocTrim = @convention(c) (Int) -> Int32
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
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

    /// The mappings of this process with their resident bytes (/proc/self/smaps, see
    /// `MemoryAttribution`); empty where there is no /proc.
    public static func mappings() -> [MemoryAttribution.Mapping] {
        // Read to the end: /proc files report a size of 0, and reading "the file" reads one chunk.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return [] }
        return MemoryAttribution.parse(smaps: String(decoding: data, as: UTF8.self))
    }

    /// The addresses of the anonymous mapping that holds the calling thread's malloc heap: where
    /// a small block allocated now lands. nil when that is the main heap ("[heap]", which other
    /// threads share) or the mappings cannot be read. For attributing a thread's allocations
    /// (`MemoryAttribution`). Read as glibc behaves by default: a thread gets a heap of its own
    /// while the process has fewer than 8 per core (then, or when it takes over the heap of a
    /// thread that ended, it shares one); a block of 4 KiB bypasses the per-thread cache (up to
    /// 1,032 bytes unless `glibc.malloc.tcache_max` raises it); and only the heap holding the
    /// block is named, not others its arena may have grown. Another allocator: the mapping
    /// holding a 4 KiB block, whatever that is.
    public static func heapOfThisThread() -> Range<UInt64>? {
        // Larger than glibc's per-thread cache takes (1,032 bytes): a block from that cache may
        // come from another thread's heap (it keeps what this thread freed, wherever it came from).
        guard let block = malloc(4096) else { return nil }
        defer { free(block) }
        let address = UInt64(UInt(bitPattern: block))
        return mappings().first { $0.path.isEmpty && $0.range.contains(address) }?.range
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
