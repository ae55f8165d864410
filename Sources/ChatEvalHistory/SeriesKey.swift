import ChatEvalCore
import ChatEvalStore
import Foundation

/// What a series is measured on: runs of different keys are never mixed.
public struct SeriesKey: Codable, Sendable, Hashable, Comparable {
    public var suite: String
    /// `MachineInfo.performanceClass`.
    public var machine: String
    public var modelSha256: String?
    /// The model file name (for display).
    public var model: String
    public var engine: String
    public var cacheMode: CacheMode

    public init(suite: String, machine: String, modelSha256: String?, model: String, engine: String, cacheMode: CacheMode) {
        self.suite = suite
        self.machine = machine
        self.modelSha256 = modelSha256
        self.model = model
        self.engine = engine
        self.cacheMode = cacheMode
    }

    public static func < (lhs: SeriesKey, rhs: SeriesKey) -> Bool {
        (lhs.suite, lhs.machine, lhs.model, lhs.modelSha256 ?? "", lhs.engine, lhs.cacheMode.rawValue)
            < (rhs.suite, rhs.machine, rhs.model, rhs.modelSha256 ?? "", rhs.engine, rhs.cacheMode.rawValue)
    }

    /// "smoke — SmolLM2.gguf (b179c95…), llama.cpp, session; Intel …, 2 cores, x86_64"
    public var label: String {
        "\(suite) — \(model)\(modelSha256.map { " (\($0.prefix(7)))" } ?? ""), \(engine), \(cacheMode.rawValue); \(machine)"
    }
}
