import ArgumentParser
import ChatEvalWorkspace

/// `chateval merge`: joins the result files of a sharded run into one run record.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the result files of `run --shard I/N` (one per CI job) into the record of the whole run.",
        discussion: """
            Every shard of one run is needed, each once, all of the same commit, settings, runtime and suites; otherwise \
            the merge is refused (exit 2) naming the difference. The merged record lists conversations in the order an \
            unsharded run replays them and evaluates the suites' gates over all of them (exit 1 when one fails), so it \
            equals an unsharded run of the commit but for timings. It is written to the reports folder like a run.

            Examples:
              chateval run --shard 2/4 --reports shard
                  one CI job's share
              chateval merge shard/*.json
                  the four shards' results, joined

            Exit codes: 0 gates passed, 1 a gate failed, 2 the shards do not make one run, 3 a shard was interrupted \
            or the merged result could not be written.
            """)

    @Argument(help: ArgumentHelp("Result files of the shards, in any order.", valueName: "result")) var results: [String]

    @Option(name: .customLong("reports"), help: ArgumentHelp("Folder for the merged result file.", valueName: "dir"))
    var reportsFolder: String = "reports"

    @OptionGroup var report: ReportOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if results.isEmpty { throw ValidationError("give the result files of every shard: chateval merge reports/*-shard-*.json") }
    }

    func run() throws {
        try ShardMergeJob(shards: results, reportsFolder: reportsFolder, reportOptions: report.options(), output: output.resolved).run()
    }
}
