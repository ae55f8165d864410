import ArgumentParser
import ChatEvalCore
import ChatEvalStore
import ChatEvalToolKit
import Foundation

/// `chateval history` over a generated repository: how long it answers for 1,000 recorded runs
/// (cold: the index built from the files; warm: the index up to date), and the change-point
/// detector's false-alarm rate and power on generated histories.
struct HistoryBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Time `chateval history` over generated runs; measure the step detector's false alarms and power.")

    @Option(help: "The chateval binary to time.") var chateval: String = ".build/release/chateval"
    @Option(help: "Commits in the generated history.") var commits: Int = 250
    @Option(help: "Result files per commit.") var runsPerCommit: Int = 4
    @Option(help: "Timed warm repetitions.") var repetitions: Int = 5
    @Option(help: "Generated histories for the detector's rates.") var histories: Int = 1_000

    func run() async throws {
        guard FileManager.default.isExecutableFile(atPath: chateval) else {
            throw BenchError("no chateval binary at \(chateval); build it first (make build: the flags every other build shares)")
        }
        let load = MachineLoad.sample(over: 1)
        print("\nhistory — \(commits) commits × \(runsPerCommit) runs = \(commits * runsPerCommit) result files")
        print("machine: \(load.summary)\(load.isBusy ? " — FIGURES BELOW CARRY THAT NOISE" : "")")
        try await timeHistoryCommand()
        measureDetector()
    }

    /// `chateval history` over a generated repository with a step at 4/5 of its commits: cold,
    /// warm (the median of `repetitions`), warm with the HTML report; and whether it finds the
    /// step it was given, and nothing else.
    private func timeHistoryCommand() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-history-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stepAt = commits * 4 / 5
        let generationStart = Date()
        let ids = try await SyntheticHistory.make(
            in: folder, commits: commits, runsPerCommit: runsPerCommit, stepAt: stepAt, stepFactor: 1.15)
        print(
            String(
                format: "generated the repository and %d result files in %.1f s", commits * runsPerCommit,
                Date().timeIntervalSince(generationStart)))

        let arguments = [
            "history", "--repo", folder.path, "--reports", folder.appendingPathComponent("reports").path,
            "--max-count", String(commits), "--no-project", "--format", "json",
        ]
        let (cold, output) = try await time(arguments)
        let history = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let found = history?["series"] as? [[String: Any]] ?? []
        let steps = found.flatMap { ($0["steps"] as? [[String: Any]] ?? []).compactMap { $0["suspect"] as? String } }
        print(String(format: "cold (index built from %d files): %.3f s", commits * runsPerCommit, cold))
        var warm: [Double] = []
        for _ in 0..<repetitions { warm.append(try await time(arguments).0) }
        let (html, _) = try await time(arguments.dropLast(2) + ["--output", folder.appendingPathComponent("history.html").path])
        print(
            String(
                format: "warm (index up to date), median of %d: %.3f s %@ — %@", repetitions, median(warm), spread(warm),
                median(warm) < 1 ? "under a second" : "OVER A SECOND"))
        print(String(format: "warm, with the HTML report written too: %.3f s", html))
        let expected = ids[stepAt]
        print(
            "steps found: \(steps.map { String($0.prefix(7)) }) — the generated step is at \(expected.prefix(7)) (commit \(stepAt)): "
                + (steps == [expected] ? "found exactly, nothing else" : "NOT AS GENERATED"))
    }

    /// The detector alone, on the per-commit medians of generated 60-commit histories: flat ones
    /// (its false alarms), then a 20% step in the middle (commit 40) and at the newest commits
    /// (the last 5, 3, 2, 1), where fewer commits after the step carry its evidence (its power).
    private func measureDetector() {
        let detector = ChangePointDetector()
        let start = Date()
        let falseAlarms = (0..<histories).filter {
            !detector.changePoints(in: Self.generated(seed: UInt64(10_000 + $0), stepAt: nil)).isEmpty
        }
        .count
        print(
            String(
                format:
                    "detector (α = %.2f, %d permutations) on %d flat 60-commit histories (5%% noise, 1 in 30 an outlier): "
                    + "false alarms %d = %.2f%%",
                detector.alpha, detector.permutations, histories, falseAlarms, 100 * Double(falseAlarms) / Double(histories)))
        for stepAt in [40, 55, 57, 58, 59] {
            let located = (0..<histories).map {
                detector.changePoints(in: Self.generated(seed: UInt64(20_000 + $0), stepAt: stepAt)).map(\.index)
            }
            let exact = located.filter { $0 == [stepAt] }.count
            let nearby = located.filter { $0.count == 1 && abs($0[0] - stepAt) <= 1 }.count
            let none = located.filter(\.isEmpty).count
            print(
                String(
                    format:
                        "… with a 20%% step at commit %d (%d after it): found exactly and alone %.1f%%, "
                        + "within one commit and alone %.1f%%, "
                        + "nothing found %.1f%%",
                    stepAt, 60 - stepAt, 100 * Double(exact) / Double(histories), 100 * Double(nearby) / Double(histories),
                    100 * Double(none) / Double(histories)))
        }
        print(String(format: "(%.2f ms per history)", Date().timeIntervalSince(start) * 1000 / Double(6 * histories)))
    }

    /// A generated 60-commit history of per-commit medians around 100 (5% noise, 1 in 30 an
    /// outlier 30–60% up), 20% higher from `stepAt` on when given.
    private static func generated(seed: UInt64, stepAt: Int?) -> [Double] {
        var random = SeededRandom(seed: seed)
        return (0..<60).map { index in
            var value = 100 * (stepAt.map { index >= $0 } == true ? 1.2 : 1) * exp(0.05 * random.normal())
            if random.uniform() < 1.0 / 30 { value *= 1.3 + 0.3 * random.uniform() }
            return value
        }
    }

    /// Runs chateval with `arguments`; its wall time and standard output.
    private func time<S: Sequence>(_ arguments: S) async throws -> (Double, String) where S.Element == String {
        let start = Date()
        let outcome = try await ProcessRunner.run(URL(fileURLWithPath: chateval), Array(arguments))
        let elapsed = Date().timeIntervalSince(start)
        guard outcome.status == 0 else {
            throw BenchError("chateval \(Array(arguments).joined(separator: " ")) exited \(outcome.status): \(outcome.stderr)")
        }
        return (elapsed, outcome.stdout)
    }
}
