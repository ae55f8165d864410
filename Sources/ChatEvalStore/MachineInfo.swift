import Foundation

/// The machine a run measured on: what makes two runs' timings comparable or not.
public struct MachineInfo: Codable, Sendable, Hashable {
    public var hostname: String
    public var cpuModel: String
    public var logicalCores: Int
    public var memoryBytes: Int
    public var operatingSystem: String
    public var kernel: String
    public var architecture: String
    /// Memory read bandwidth in bytes per second, as `make bench` probed it on this CPU at the
    /// run's thread count (`MemoryBandwidth`); nil when it never did. With the runtime's
    /// `EngineMemory.roofline`, each turn's decode is shown as a share of the bound it sets.
    public var memoryBandwidth: Double?

    public init(
        hostname: String, cpuModel: String, logicalCores: Int, memoryBytes: Int, operatingSystem: String, kernel: String,
        architecture: String
    ) {
        self.hostname = hostname
        self.cpuModel = cpuModel
        self.logicalCores = logicalCores
        self.memoryBytes = memoryBytes
        self.operatingSystem = operatingSystem
        self.kernel = kernel
        self.architecture = architecture
    }

    /// This machine, read from /proc and /etc/os-release (fields it cannot read are "unknown").
    public static func current() -> MachineInfo {
        let info = ProcessInfo.processInfo
        var system = utsname()
        uname(&system)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return MachineInfo(
            hostname: info.hostName,
            cpuModel: firstValue(in: "/proc/cpuinfo", key: "model name") ?? "unknown",
            logicalCores: info.processorCount,
            memoryBytes: Int(clamping: info.physicalMemory),
            operatingSystem: osRelease() ?? info.operatingSystemVersionString,
            kernel: field(system.release),
            architecture: field(system.machine))
    }

    private static func firstValue(in file: String, key: String) -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            if let colon = line.firstIndex(of: ":") { return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    private static func osRelease() -> String? {
        firstValue(in: "/etc/os-release", key: "PRETTY_NAME").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }
}
