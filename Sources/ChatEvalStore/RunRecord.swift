import ChatEvalCore
import Foundation

/// Everything one `chateval run` measured, as written to its result file.
///
/// Versioned (`schemaVersion`) and documented by `reports/schema/run.schema.json`; keys are
/// snake_case on disk. A record is written while the run goes (status `running`), and once more at
/// the end (`complete`, or `incomplete` when the run was interrupted).
public struct RunRecord: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public enum Status: String, Codable, Sendable {
        case running, complete, incomplete
    }

    public var schemaVersion: Int
    public var runId: String
    public var status: Status
    public var startedAt: Date
    public var endedAt: Date?
    /// The command line, as typed.
    public var command: [String]
    /// The commit the run measured; nil outside a git repository.
    public var git: GitSnapshot?
    public var machine: MachineInfo
    /// How busy the machine was when the run started and ended (absent in older records).
    public var environment: RunEnvironment?
    public var runtime: RuntimeIdentity
    /// sha256 of the model file.
    public var modelSha256: String?
    public var settings: RunSettings
    /// The project file used, if any.
    public var project: ProjectFileRecord?
    /// Set for the two runs of `run --baseline`; nil for an ordinary run.
    public var role: RunRole?
    /// The other run of a `run --baseline` pair.
    public var pairedRunId: String?
    /// For the runs of `run --baseline`: the look of its design that decided, so that comparing the
    /// pair again (`chateval compare`) decides at the same share of the error rates.
    public var decidedLook: DecidedLook?
    /// Set when one command ran the suites against several models (or templates, or context
    /// sizes) side by side: each writes its own record, one model per record, tied by the group.
    public var group: RunGroup?
    public var suites: [SuiteRecord]
    /// True when every gate of every suite passed; nil until the run ends.
    public var gatesPassed: Bool?
    /// The part of the run this record holds, for `run --shard I/N`; nil for a whole run.
    public var shard: RunShard?
    /// Throughput, latency under load and goodput, for `run --concurrency N`; nil otherwise.
    public var load: LoadSummary?

    public init(
        runId: String, startedAt: Date, command: [String], git: GitSnapshot?, machine: MachineInfo,
        runtime: RuntimeIdentity, modelSha256: String?, settings: RunSettings, suites: [SuiteRecord] = []
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.runId = runId
        self.status = .running
        self.startedAt = startedAt
        self.command = command
        self.git = git
        self.machine = machine
        self.runtime = runtime
        self.modelSha256 = modelSha256
        self.settings = settings
        self.suites = suites
    }
}
