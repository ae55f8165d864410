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

    /// One line: "quiet (other processes 0.02 cores, load 0.31)" or "busy: other processes use 1.20 cores
    /// (swift-frontend pid 4242 0.94 cores, ...)": each busy process with its id, so that it can be found (`ps -p`).
    public var summary: String {
        let load = loadAverage1.map { String(format: ", load %.2f", $0) } ?? ""
        guard isBusy else { return String(format: "quiet (other processes %.2f cores%@)", otherProcessesCores, load) }
        return String(format: "busy: other processes use %.2f cores (%@)%@", otherProcessesCores, busiestNamed(3), load)
    }

    /// The `count` busiest other processes, "swift-frontend pid 4242 0.94 cores, chateval pid 17 0.30 cores".
    public func busiestNamed(_ count: Int) -> String {
        busiest.prefix(count).map { String(format: "%@ pid %d %.2f cores", $0.name, $0.pid, $0.cores) }.joined(separator: ", ")
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
        let averages = loadAverages()
        let governor = (try? String(contentsOfFile: "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return MachineLoad(
            loadAverage1: averages.first, loadAverage5: averages.dropFirst().first, otherProcessesCores: total,
            busiest: Array(shares.sorted { $0.cores > $1.cores }.prefix(5)), frequencyGovernor: governor)
    }

    /// The 1-, 5- and 15-minute load averages (/proc/loadavg); empty where there is none.
    public static func loadAverages() -> [Double] {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).compactMap { Double($0) } ?? []
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
