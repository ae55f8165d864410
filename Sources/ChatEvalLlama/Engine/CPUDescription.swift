import Foundation

/// The CPU this process runs on, from /proc/cpuinfo: its model and instruction-set extensions.
public struct CPUDescription: Sendable, Equatable {
    public var model: String
    /// Every flag /proc/cpuinfo lists (x86 `flags`, arm64 `Features`).
    public var instructionSets: Set<String>

    public init(model: String, instructionSets: Set<String>) {
        self.model = model
        self.instructionSets = instructionSets
    }

    /// Parses /proc/cpuinfo's text (its first processor).
    public init(cpuinfo: String) {
        var model = "", flags: Set<String> = []
        for line in cpuinfo.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if model.isEmpty, key == "model name" || key == "Model name" { model = value }
            if flags.isEmpty, key == "flags" || key == "Features" { flags = Set(value.split(separator: " ").map(String.init)) }
        }
        self.init(model: model.isEmpty ? "unknown CPU" : model, instructionSets: flags)
    }

    /// This machine's CPU; nil where /proc/cpuinfo cannot be read (not Linux).
    public static let current: CPUDescription? = {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        return CPUDescription(cpuinfo: text)
    }()
}
