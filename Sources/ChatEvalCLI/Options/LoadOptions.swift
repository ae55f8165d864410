import ArgumentParser
import ChatEvalStore
import Foundation

/// How the run is split or loaded: `--shard I/N`, `--concurrency N[,M...]`.
struct LoadOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run shard I of N (conversation-atomic, balanced by turns); join the N result files with `chateval merge`.", valueName: "I/N"))
    var shard: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Replay N conversations at once against a served runtime and report throughput, latency under load and goodput; "
                + "a list (1,2,4,8) sweeps.",
            valueName: "N[,N...]"))
    var concurrency: String?

    @Option(
        name: .customLong("sweep-chart"),
        help: ArgumentHelp(
            "Where a sweep writes its SVG chart of TTFT p95 against throughput (default: beside the result files).", valueName: "path"))
    var sweepChart: String?

    var parsedShard: RunShard? { shard.flatMap(RunShard.init(parsing:)) }

    /// The concurrency levels, in the order given; nil without --concurrency.
    var levels: [Int]? {
        concurrency.map { $0.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
    }

    func validate() throws {
        if let shard, RunShard(parsing: shard) == nil {
            throw ValidationError("--shard \(shard): write I/N with 1 ≤ I ≤ N ≤ 1000, e.g. --shard 2/4")
        }
        if let concurrency {
            let parts = concurrency.split(separator: ",", omittingEmptySubsequences: false)
            let levels = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !parts.isEmpty, levels.count == parts.count, levels.allSatisfy({ (1...1024).contains($0) }) else {
                throw ValidationError("--concurrency \(concurrency): give a number from 1 to 1024, or a list such as 1,2,4,8")
            }
            if Set(levels).count < levels.count { throw ValidationError("--concurrency \(concurrency) repeats a level") }
        }
        if shard != nil, let levels, levels.count > 1 {
            throw ValidationError("--shard and a --concurrency sweep do not mix: sweep one level per shard, or sweep unsharded")
        }
    }
}
