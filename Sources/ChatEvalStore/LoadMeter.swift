import Foundation

/// Measures `ReplayLoad` around a piece of work: start it, then `stop()`. On a system without
/// /proc it measures nothing (nil).
public struct LoadMeter: Sendable {
    private let start: (busy: Int, own: Int, time: Double)?

    public init() { start = Self.read() }

    /// The load since `init`; nil when /proc could not be read or no time passed.
    public func stop() -> ReplayLoad? {
        guard let start, let end = Self.read(), end.time > start.time else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let seconds = end.time - start.time
        let others = Double((end.busy - start.busy) - (end.own - start.own)) / ticks / seconds
        return ReplayLoad(otherCores: max(0, others), seconds: seconds)
    }

    /// Busy ticks of all processors (user, nice, system, irq, softirq, steal — a hypervisor
    /// taking the processor counts as another process), this process's ticks, and the time.
    private static func read() -> (busy: Int, own: Int, time: Double)? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first, line.hasPrefix("cpu "),
            let own = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = own.lastIndex(of: ")")
        else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        guard fields.count >= 8 else { return nil }
        // user nice system idle iowait irq softirq steal
        let busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]
        let mine = own[own.index(after: close)...].split(separator: " ")
        guard mine.count > 12, let user = Int(mine[11]), let system = Int(mine[12]) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return (busy, user + system, Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
    }
}
