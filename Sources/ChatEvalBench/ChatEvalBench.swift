import ArgumentParser
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRuntime
import ChatEvalStore
import Foundation

/// `chateval-bench`: what `make bench` prints. Every comparison is measured side by side in one
/// run, alternating, as medians of per-pair ratios with each side's run-to-run spread, so that the
/// machine's own noise shows beside every figure.
@main
struct ChatEvalBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chateval-bench",
        abstract: "Benchmarks of ChatEval: its measurements against llama.cpp's own, session reuse, and the CI gate.",
        subcommands: [ThroughputBench.self, ReuseBench.self, GateBench.self, ServedBench.self, HistoryBench.self, BisectBench.self])
}

/// Prints a line straight to standard output. Swift's `print` is block-buffered into a pipe or a
/// file, so a half-hour `make bench` piped to `tee` would show nothing until it ended. (Not
/// `setvbuf(stdout, …)` at start: Swift 6's strict concurrency refuses to name C's `stdout`.)
func print(_ line: String = "") {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func median(_ values: [Double]) -> Double { Distribution(values)?.median ?? .nan }

/// (max − min) / median, as "±x%": how much the same measurement moved from run to run.
func spread(_ values: [Double]) -> String {
    guard let distribution = Distribution(values), distribution.median > 0 else { return "–" }
    return String(format: "±%.1f%%", (distribution.max - distribution.min) / distribution.median / 2 * 100)
}

/// Streams one turn to the end and returns its measurements.
func measuredTurn(_ runtime: some ChatRuntime, _ messages: [ChatMessage], _ options: GenerationOptions) async throws -> TurnMetrics {
    var metrics: TurnMetrics?
    for try await event in runtime.respond(to: messages, options: options) {
        if case .info(let info) = event { metrics = info }
    }
    guard let metrics else { throw BenchError("the turn reported no measurements") }
    return metrics
}
