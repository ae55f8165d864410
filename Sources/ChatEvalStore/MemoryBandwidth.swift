import ChatEvalCore
import Dispatch
import Foundation

/// This machine's memory read bandwidth, probed once per CPU and thread count and cached, the way
/// the engine is cached: decode of a small model is bound by how fast the weights stream from
/// memory (`DecodeRoofline`).
///
/// The probe reads a buffer much larger than any last-level cache (1 GiB, written first so every
/// page is real: untouched anonymous pages all map one zero page, which reads from cache), split
/// among `threads` threads as decode splits its work, and keeps the best of several passes: other
/// processes only ever slow a pass down.
public enum MemoryBandwidth {
    /// A probe's result as cached.
    public struct Measurement: Codable, Sendable {
        public var bytesPerSecond: Double
        public var threads: Int
        public var cpu: String
        public var measuredAt: Date
        /// The 1-minute load average when it was measured.
        public var load: Double?
    }

    /// Best of `passes` reads of `bytes` by `threads` threads, in bytes per second.
    public static func probe(bytes: Int = 1 << 30, threads: Int, passes: Int = 5) -> Double {
        let words = max(bytes / 8, 1 << 16) / 64 * 64
        let buffer = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
        defer { buffer.deallocate() }
        for index in 0..<words { buffer[index] = UInt64(truncatingIfNeeded: index &* 2_654_435_761) }
        let threads = max(threads, 1)
        let slice = words / threads / 64 * 64
        let sums = UnsafeMutablePointer<UInt64>.allocate(capacity: threads * 8)
        defer { sums.deallocate() }
        // Each thread reads its own slice and writes its own sum slot: no two share memory they write.
        nonisolated(unsafe) let words0 = UnsafePointer(buffer)
        nonisolated(unsafe) let sumSlots = sums
        var best = 0.0
        let clock = ContinuousClock()
        for _ in 0..<max(passes, 1) {
            let start = clock.now
            DispatchQueue.concurrentPerform(iterations: threads) { part in
                let base = words0 + part * slice
                let count = part == threads - 1 ? words - part * slice : slice
                // Four independent sums so the loads are not serialised on one addition chain.
                var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0
                var index = 0
                while index + 4 <= count {
                    a &+= base[index]
                    b &+= base[index + 1]
                    c &+= base[index + 2]
                    d &+= base[index + 3]
                    index += 4
                }
                sumSlots[part * 8] = a ^ b ^ c ^ d  // kept, so the reads are not optimised away
            }
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if seconds > 0 { best = max(best, Double(words * 8) / seconds) }
        }
        return best
    }

    /// The set-up cache's folder of probes: `$CHATEVAL_CACHE/bandwidth` (default `~/.cache/chateval`).
    public static var defaultFolder: URL {
        let cache =
            ProcessInfo.processInfo.environment["CHATEVAL_CACHE"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/chateval")
        return cache.appendingPathComponent("bandwidth")
    }

    /// The measurement cached for this CPU and `threads`, if any: what a run records, without
    /// probing (a probe beside a run's other work would measure the work, and be cached).
    public static func cachedIfPresent(threads: Int, folder: URL = defaultFolder) -> Measurement? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = UTCTimestamp.jsonDecoding
        guard let data = try? Data(contentsOf: file(threads: threads, folder: folder)),
            let cached = try? decoder.decode(Measurement.self, from: data), cached.bytesPerSecond > 0, cached.bytesPerSecond.isFinite
        else { return nil }
        return cached
    }

    private static func file(threads: Int, folder: URL) -> URL {
        folder.appendingPathComponent("\(cpuKey().filter { $0.isLetter || $0.isNumber || $0 == "-" })-t\(threads).json")
    }

    /// The cached measurement for this CPU and `threads`, probing (and caching) when there is
    /// none: `make bench`, on a quiet machine.
    public static func cached(threads: Int, folder: URL = defaultFolder) -> Measurement {
        if let cached = cachedIfPresent(threads: threads, folder: folder) { return cached }
        let cpu = cpuKey()
        let target = file(threads: threads, folder: folder)
        let load = MachineLoad.loadAverages().first  // before the probe, which adds its own threads
        let measurement = Measurement(bytesPerSecond: probe(threads: threads), threads: threads, cpu: cpu, measuredAt: Date(), load: load)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = UTCTimestamp.jsonEncoding
        if let data = try? encoder.encode(measurement) {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? data.write(to: target, options: .atomic)
        }
        return measurement
    }

    /// The CPU's model name, core count and memory size (`MachineInfo`): what tells two machines apart here.
    static func cpuKey() -> String {
        let machine = MachineInfo.current()
        return "\(machine.cpuModel.replacingOccurrences(of: " ", with: "-"))-\(machine.logicalCores)cpu-\(machine.memoryBytes >> 30)GiB"
    }
}
