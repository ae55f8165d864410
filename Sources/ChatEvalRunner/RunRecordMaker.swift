import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Starts run records and their writers the one way every command does: a new run id, the
/// command line (secrets redacted), the machine, the runtime's identity, the model's digest,
/// and how busy the machine was at the start.
public struct RunRecordMaker: Sendable {
    public var command: [String]
    public var runtime: RuntimeIdentity
    public var modelSha256: String?
    public var machineLoad: MachineLoad

    public init(command: [String] = CommandLine.arguments, runtime: RuntimeIdentity, modelSha256: String?, machineLoad: MachineLoad) {
        self.command = Secrets.redactCommand(command)
        self.runtime = runtime
        self.modelSha256 = modelSha256
        self.machineLoad = machineLoad
    }

    /// A record of `plan` on the commit `git` describes, listing no suites yet.
    public func record(plan: RunPlan, git: GitSnapshot?, project: ProjectFileRecord?) -> RunRecord {
        var record = RunRecord(
            runId: ResultWriter.newRunId(), startedAt: Date(), command: command, git: git, machine: MachineInfo.current(),
            runtime: runtime, modelSha256: modelSha256, settings: plan.settings)
        record.project = project
        record.environment = RunEnvironment(start: machineLoad)
        return record
    }

    /// The writer of `record` in `folder`, keeping the suites' text beside it.
    public static func writer(_ record: RunRecord, suites: [Suite], folder: URL) throws(ResultWriteError) -> ResultWriter {
        try ResultWriter(folder: folder, record: record, suites: suites.map { SuiteSource(path: $0.path, text: $0.text) })
    }
}
