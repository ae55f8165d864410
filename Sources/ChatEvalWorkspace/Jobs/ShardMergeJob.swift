import ChatEvalCore
import ChatEvalReport
import ChatEvalRunner
import ChatEvalStore
import Foundation

/// `chateval merge`: the result files of a sharded run joined into the record of the whole run.
package struct ShardMergeJob: Sendable {
    /// The shards' result files, in any order.
    package var shards: [String]
    package var reportsFolder: String
    package var reportOptions: RunReportOptions
    package var output: ReportOutput

    package init(shards: [String], reportsFolder: String, reportOptions: RunReportOptions, output: ReportOutput) {
        self.shards = shards
        self.reportsFolder = reportsFolder
        self.reportOptions = reportOptions
        self.output = output
    }

    /// Reads the shards, merges them, writes and reports the merged run; throws the exit it earned.
    package func run() throws {
        var records: [RunRecord] = []
        for path in shards {
            do {
                records.append(try ResultFolder.read(URL(fileURLWithPath: path)))
            } catch {
                throw failure("\(path): \(error.message)", .badInput)
            }
        }
        let merged: RunRecord
        do {
            merged = try ShardMerge.merge(records, command: Secrets.redactCommand(CommandLine.arguments))
        } catch {
            throw failure("cannot merge: \(error.message)", .badInput)
        }
        let folder = URL(fileURLWithPath: reportsFolder)
        let url = folder.appendingPathComponent(ResultWriter.fileName(for: merged) + ".json")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try AtomicFile.write(try ResultWriter.makeEncoder(pretty: true).encode(merged), to: url)
        } catch {
            throw failure("cannot write \(url.path): \(error)", .runIncomplete)
        }
        try output.write(.runs([merged])) { RunReport.render([merged], options: reportOptions) }
        output.info("\nmerged    \(records.count) shards of commit \(merged.git?.shortCommit ?? "none")")
        output.info("result    \(url.path)")
        if merged.status == .incomplete { throw failure("a shard was interrupted: the merged run is incomplete", .runIncomplete) }
        try GatePolicy.checkGates([merged])
    }
}
