import Foundation

/// How busy the machine was around a measurement: what decides whether its timings can be
/// trusted and compared. Read from /proc (Linux); fields it cannot read are nil or empty.
public struct MachineLoad: Codable, Sendable, Hashable {
    /// The 1- and 5-minute load averages.
    public var loadAverage1: Double?
    public var loadAverage5: Double?
    /// CPU used by every other process over the sampling interval, in cores (1.0 = one core busy).
    public var otherProcessesCores: Double
    /// The busiest other processes, most first (at most five as a run samples them, each above 1% of a core).
    public var busiest: [ProcessShare]
    /// The CPU frequency governor (`performance`, `powersave`, `schedutil`...), where readable.
    public var frequencyGovernor: String?
    /// How long the sample lasted, in seconds: half a second before a run, the whole run at its
    /// end. Nil in records written before 2026-11-30, whose samples were all half a second.
    public var seconds: Double?

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
        loadAverage1: Double?, loadAverage5: Double?, otherProcessesCores: Double, busiest: [ProcessShare], frequencyGovernor: String?,
        seconds: Double? = nil
    ) {
        self.loadAverage1 = loadAverage1
        self.loadAverage5 = loadAverage5
        self.otherProcessesCores = otherProcessesCores
        self.busiest = busiest
        self.frequencyGovernor = frequencyGovernor
        self.seconds = seconds
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
        Sample.begin().load(atLeast: interval)
    }

    /// A sample begun: the processors' busy time and every process's CPU time at one moment. Its
    /// `load` is what the other processes used from then on, so that a run can be its own
    /// sampling interval instead of sleeping for one (the calling process is excluded, whatever it
    /// did meanwhile).
    ///
    /// Over a long interval processes come and go (a compile's many short jobs): the cores used
    /// come from the processors' busy time (/proc/stat, as `LoadMeter` reads it for each
    /// replay), which counts them all; `busiest` names the processes alive at the end, a process
    /// born during the interval with all of its time.
    public struct Sample: Sendable {
        let began: ContinuousClock.Instant
        let times: [Int: ProcessTime]
        let meter: LoadMeter

        /// Every process's CPU time now.
        public static func begin() -> Sample { Sample(began: .now, times: processTimes(), meter: LoadMeter()) }

        /// The load since `begin()`, waiting first until `atLeast` seconds have passed since it
        /// (no wait when they have): cores as the average over the whole interval, and the
        /// `naming` busiest other processes (each above 1% of a core).
        public func load(atLeast minimum: Double = 0, naming: Int = 5) -> MachineLoad {
            let elapsed = Self.seconds(began.duration(to: .now))
            if elapsed < minimum { Thread.sleep(forTimeInterval: minimum - elapsed) }
            let after = processTimes()
            let interval = Self.seconds(began.duration(to: .now))
            let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
            let own = Int(getpid())
            var shares: [ProcessShare] = []
            var total = 0.0
            for (pid, now) in after where pid != own {
                // Absent before: born during the interval (all its time is in it).
                let then = times[pid]?.ticks ?? 0
                guard now.ticks >= then else { continue }
                let cores = Double(now.ticks - then) / ticksPerSecond / interval
                total += cores
                if cores >= 0.01 { shares.append(ProcessShare(pid: pid, name: now.name, cores: cores)) }
            }
            // The processors' own count where /proc/stat is read: it holds the processes that ended too.
            if let replay = meter.stop() { total = replay.otherCores }
            let averages = loadAverages()
            let governor = (try? String(contentsOfFile: "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return MachineLoad(
                loadAverage1: averages.first, loadAverage5: averages.dropFirst().first, otherProcessesCores: total,
                busiest: Array(shares.sorted { $0.cores > $1.cores }.prefix(naming)), frequencyGovernor: governor,
                seconds: (interval * 1000).rounded() / 1000)
        }

        private static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }

    /// The 1-, 5- and 15-minute load averages (/proc/loadavg); empty where there is none.
    public static func loadAverages() -> [Double] {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).compactMap { Double($0) } ?? []
    }

    struct ProcessTime: Sendable {
        var name: String
        var ticks: Int
    }

    /// CPU ticks (user + system) and name of every process.
    private static func processTimes() -> [Int: ProcessTime] {
        var result: [Int: ProcessTime] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            // Fields after the name: state is field 3; utime and stime are fields 14 and 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { continue }
            result[pid] = ProcessTime(name: String(stat[stat.index(after: open)..<close]), ticks: user + system)
        }
        return result
    }
}
