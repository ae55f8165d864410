import Foundation

/// How busy the machine was around a measurement: what decides whether its timings can be
/// trusted and compared. Read from /proc (Linux); fields it cannot read are nil or empty.
public struct MachineLoad: Codable, Sendable, Hashable {
    /// The 1- and 5-minute load averages.
    public var loadAverage1: Double?
    public var loadAverage5: Double?
    /// CPU used by every other process over the sampling interval, in cores (1.0 = one core busy).
    public var otherProcessesCores: Double
    /// The busiest other processes, most first (at most five, each above 1% of a core).
    public var busiest: [ProcessShare]
    /// The CPU frequency governor (`performance`, `powersave`, `schedutil`...), where readable.
    public var frequencyGovernor: String?

    public struct ProcessShare: Codable, Sendable, Hashable {
        public var pid: Int
        public var name: String
        /// Cores used over the interval.
        public var cores: Double

        public init(pid: Int, name: String, cores: Double) {
            self.pid = pid
            self.name = name
            self.cores = cores
        }
    }

    public init(
        loadAverage1: Double?, loadAverage5: Double?, otherProcessesCores: Double, busiest: [ProcessShare], frequencyGovernor: String?
    ) {
        self.loadAverage1 = loadAverage1
        self.loadAverage5 = loadAverage5
        self.otherProcessesCores = otherProcessesCores
        self.busiest = busiest
        self.frequencyGovernor = frequencyGovernor
    }

    /// Other processes using more than this share of a core make the machine busy.
    public static let busyThreshold = 0.25

    /// True when other processes used a quarter of a core or more: timings taken now would carry
    /// their noise.
    public var isBusy: Bool { otherProcessesCores >= Self.busyThreshold }

    /// One line: "quiet (other processes 0.02 cores, load 0.31)" or "busy: swift-frontend 0.94 cores, ...".
    public var summary: String {
        let load = loadAverage1.map { String(format: ", load %.2f", $0) } ?? ""
        guard isBusy else { return String(format: "quiet (other processes %.2f cores%@)", otherProcessesCores, load) }
        let top = busiest.prefix(3).map { String(format: "%@ %.2f cores", $0.name, $0.cores) }.joined(separator: ", ")
        return String(format: "busy: other processes use %.2f cores (%@)%@", otherProcessesCores, top, load)
    }

    /// Samples the machine over `interval` seconds (the calling process excluded).
    public static func sample(over interval: Double = 0.5) -> MachineLoad {
        let before = processTimes()
        Thread.sleep(forTimeInterval: interval)
        let after = processTimes()
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let own = Int(getpid())
        var shares: [ProcessShare] = []
        var total = 0.0
        for (pid, now) in after where pid != own {
            guard let then = before[pid], now.ticks >= then.ticks else { continue }
            let cores = Double(now.ticks - then.ticks) / ticksPerSecond / interval
            total += cores
            if cores >= 0.01 { shares.append(ProcessShare(pid: pid, name: now.name, cores: cores)) }
        }
        let averages =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").compactMap { Double($0) } ?? []
        let governor = (try? String(contentsOfFile: "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return MachineLoad(
            loadAverage1: averages.first, loadAverage5: averages.dropFirst().first, otherProcessesCores: total,
            busiest: Array(shares.sorted { $0.cores > $1.cores }.prefix(5)), frequencyGovernor: governor)
    }

    /// CPU ticks (user + system) and name of every process.
    private static func processTimes() -> [Int: (name: String, ticks: Int)] {
        var result: [Int: (String, Int)] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            // Fields after the name: state is field 3; utime and stime are fields 14 and 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { continue }
            result[pid] = (String(stat[stat.index(after: open)..<close]), user + system)
        }
        return result
    }
}

/// How busy the machine was while one replay ran: the processor time every other process used
/// over the replay's wall-clock time. Read from /proc/stat and /proc/self/stat before and after
/// (two small reads, no sleeping), so every replay of every run gets one.
public struct ReplayLoad: Codable, Sendable, Hashable {
    /// Cores used by other processes on average over the replay (1.0 = one core busy).
    public var otherCores: Double
    /// The replay's wall-clock seconds.
    public var seconds: Double

    public init(otherCores: Double, seconds: Double) {
        self.otherCores = otherCores
        self.seconds = seconds
    }

    /// True when other processes used `MachineLoad.busyThreshold` of a core or more.
    public var isBusy: Bool { otherCores >= MachineLoad.busyThreshold }
}

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

/// What the machine was doing when a run started and ended.
public struct RunEnvironment: Codable, Sendable, Hashable {
    public var start: MachineLoad
    public var end: MachineLoad?

    public init(start: MachineLoad, end: MachineLoad? = nil) {
        self.start = start
        self.end = end
    }
}
