import ChatEvalCompare
import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import ChatEvalWorkspace
import Foundation
import Testing

/// Issue 48: which runs `compare` treats as one paired job. Only the two runs of ONE
/// `run --baseline` job (each naming the other) keep the paired treatment — their job's look and
/// settings, no run-to-run term, no per-replay screen; runs of two different jobs are compared as
/// separately recorded runs.
@Suite struct RecordedRunSourcesTests {
    /// Writes `records` as result files into a new folder; their paths by run id.
    static func files(_ records: [RunRecord]) throws -> (folder: URL, paths: [String: String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-sources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var paths: [String: String] = [:]
        for record in records {
            let url = folder.appendingPathComponent("\(record.runId).json")
            try ResultWriter.makeEncoder(pretty: false).encode(record).write(to: url)
            paths[record.runId] = url.path
        }
        return (folder, paths)
    }

    /// A paired job's run: `runId`, naming `pairedWith`, at commit `commit`, having decided at its
    /// second look with the default settings.
    static func jobRun(_ runId: String, pairedWith: String, commit: Int, role: RunRole, seed: UInt64) -> RunRecord {
        var synthetic = SyntheticRuns(seed: seed)
        var record = synthetic.record(runId: runId, commit: SyntheticRuns.commitID(commit), conversations: 4, turns: 1)
        record.role = role
        record.pairedRunId = pairedWith
        var look = DecidedLook(looks: [1, 2], look: 1, share: 0.25, intervalShare: 0.25)
        look.settings = .default
        record.decidedLook = look
        return record
    }

    @Test func runsOfTwoPairedJobsAreSeparatelyRecordedRunsAndOneJobsRunsArePaired() throws {
        let records = [
            Self.jobRun("job1-base", pairedWith: "job1-head", commit: 1, role: .baseline, seed: 1),
            Self.jobRun("job1-head", pairedWith: "job1-base", commit: 2, role: .head, seed: 2),
            Self.jobRun("job2-head", pairedWith: "job2-base", commit: 3, role: .head, seed: 3),
        ]
        let (folder, paths) = try Self.files(records)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = try RunSources(repo: nil, reportsFolder: folder.path, project: ProjectSelection(path: nil, ignore: true))

        let separate = try sources.compare(base: paths["job1-head"]!, head: paths["job2-head"]!, overrides: ComparisonOverrides()).0
        #expect(separate.runSpread != nil)
        #expect(separate.load.screenedAt == ComparisonSettings.defaultBusyThreshold)
        #expect(separate.design.look == 1 && separate.design.share == 1)

        let oneJob = try sources.compare(base: paths["job1-base"]!, head: paths["job1-head"]!, overrides: ComparisonOverrides()).0
        #expect(oneJob.runSpread == nil && oneJob.load.screenedAt == nil)
        #expect(oneJob.design.share == 0.25 && oneJob.design.looks == [1, 2])
        #expect(oneJob.head.sources == [paths["job1-head"]!])
    }
}
