import ArgumentParser
import ChatEvalCompare
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalToolKit
import Foundation

/// The CI gate's own error rates: how often it false-alarms on identical builds and how often it
/// catches a real slowdown — on seeded synthetic samples (exact, fast), and on the real model.
struct GateBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate", abstract: "The gate's false-alarm rate and power, synthetic and on the real model.")

    @Option(help: "GGUF model for the real-model comparisons.") var model: String?
    @Option(help: "Synthetic comparisons per scenario; 0 to skip them.") var trials: Int = 1000
    @Option(help: "Real-model comparisons of each kind (A/A and slowdown); 0 to skip them.") var realComparisons: Int = 0
    @Option(
        parsing: .upToNextOption,
        help: "Designs of the real comparisons: repetitions per side fixed by --repeat, 0 for rounds until decided.")
    var repetitionCounts: [Int] = [0]
    @Option(help: "The chateval binary the real comparisons run.") var chateval: String?
    @Option(help: "A command run in a loop beside the real comparisons (a compile).") var beside: String = ""
    @Option(help: "--max-repeat for every real comparison in rounds.") var runMaxRepeat: Int?
    @Option(help: "--time-budget for every real comparison in rounds.") var runTimeBudget: String?
    @Option(help: "--busy-threshold for every real comparison (off: keep disturbed replays).") var runBusyThreshold: String?
    @Flag(help: "Real-model comparisons of identical sides only.") var aaOnly = false
    @Option(help: "Suites whose shape (turns per suite) the synthetic scenario copies.") var suites: String = "suites"
    @Flag(help: "Real-model comparisons with the slower head only.") var slowdownOnly = false
    @Option(help: "Most repetitions per side of the sequential design.") var maxRepetitions: Int = 30
    @Flag(help: "Synthetic scenarios of the sequential design only.") var sequentialOnly = false
    @Flag(help: "Synthetic scenarios of the shipped suites' shape only.") var shippedOnly = false
    @Option(help: "Exponent of the false-alarm rate's spending function.") var spendingExponent: Double = SequentialDesign
        .defaultSpendingExponent
    @Option(help: "Exponent of the intervals' spending function (0: none).") var intervalExponent: Double =
        SequentialDesign.defaultIntervalSpendingExponent ?? 0
    @Option(parsing: .upToNextOption, help: "Shares of each value's variance common to a replay's turns, for the synthetic scenarios.")
    var sharedShares: [Double] = [0, 0.55]
    @Flag(help: "Synthetic scenarios of separately recorded runs (compare of two runs, each with its own offset) only.")
    var recordedOnly = false

    func run() async throws {
        if trials > 0 { synthetic() }
        if realComparisons > 0 {
            guard let model else { throw ValidationError("--model is needed for real-model comparisons") }
            try await real(model: model)
        }
    }

    // MARK: Synthetic

    private func synthetic() {
        let settings = ComparisonSettings.default
        let calibration = GateCalibration(settings: settings)
        let shipped =
            (try? FileManager.default.contentsOfDirectory(atPath: suites))?.filter { $0.hasSuffix(".yaml") }.sorted()
            .compactMap { try? SuiteLoader.load(path: suites + "/" + $0) }.map { $0.conversations.map(\.script.userMessages.count) } ?? []
        recordedRuns(calibration, shipped: shipped)
        if recordedOnly { return }
        var sequential = SequentialDesign.rounds(maximum: maxRepetitions)
        sequential.spendingExponent = spendingExponent
        sequential.intervalSpendingExponent = intervalExponent <= 0 ? nil : intervalExponent
        print(
            "\nThe gate on seeded synthetic samples (\(trials) comparisons each; every value varies by 10%, of which a share is common to "
                + "the turns of a replay; "
                + "\(settings.preset) settings: false-alarm rate \(settings.familyErrorRate) for the whole comparison, threshold 5%; "
                + "sequential: looks at \(sequential.looks.map(String.init).joined(separator: ", ")) repetitions, "
                + "spending α·t^\(sequential.spendingExponent))"
        )
        var table = TextTable([
            .init("scenario", .left), .init("shared"), .init("repetitions"), .init("A/A: any regression"), .init("A/A: decided"),
            .init("A/A: median reps"),
            .init("10% slower TTFT caught"), .init("its median reps"), .init(ChangeVerdict.underpowered.words),
            .init("5% slower (at the threshold): said unchanged or not worse"),
        ])
        var scenarios: [(String, [[Int]], Int, SequentialDesign?)] = []
        for repetitions in [1, 2, 3, ComparisonSettings.defaultRepetitions] {
            scenarios.append(("one 8-turn conversation", [[8]], repetitions, nil))
        }
        scenarios.append(("one 8-turn conversation", [[8]], maxRepetitions, sequential))
        for repetitions in [1, 3] { scenarios.append(("eight 1-turn conversations", [Array(repeating: 1, count: 8)], repetitions, nil)) }
        // Where one repetition can decide: twelve one-turn conversations (a sign test across them reaches 1/4096).
        scenarios.append(("twelve 1-turn conversations", [Array(repeating: 1, count: 12)], 1, nil))
        scenarios.append(("eight 1-turn conversations", [Array(repeating: 1, count: 8)], maxRepetitions, sequential))
        if !shipped.isEmpty {
            for repetitions in [1, ComparisonSettings.defaultRepetitions] {
                scenarios.append(("the shipped suites' shape", shipped, repetitions, nil))
            }
            scenarios.append(("the shipped suites' shape", shipped, maxRepetitions, sequential))
        }
        if sequentialOnly { scenarios = scenarios.filter { $0.3 != nil } }
        if shippedOnly { scenarios = scenarios.filter { $0.1 == shipped } }
        for shared in sharedShares {
            for (name, shape, repetitions, design) in scenarios {
                let same = calibration.run(
                    .init(suites: shape, repetitions: repetitions, coefficientOfVariation: 0.1, sharedVariance: shared, design: design),
                    trials: trials, seed: 11)
                let slower = calibration.run(
                    .init(
                        suites: shape, repetitions: repetitions, coefficientOfVariation: 0.1, sharedVariance: shared,
                        slowdown: 0.1, design: design), trials: trials, seed: 12)
                let atThreshold = calibration.run(
                    .init(
                        suites: shape, repetitions: repetitions, coefficientOfVariation: 0.1, sharedVariance: shared,
                        slowdown: 0.05, design: design), trials: trials, seed: 15)
                table.add([
                    name, String(format: "%.2f", shared), design == nil ? String(repetitions) : "≤ \(repetitions), in rounds",
                    rate(same.anyRegression, of: trials), rate(same.decided, of: trials), String(format: "%.0f", same.medianRepetitions),
                    rate(slower.ttftRegression, of: trials),
                    String(format: "%.0f", slower.medianRepetitions), rate(slower.ttftUnderpowered, of: trials),
                    rate(atThreshold.ttftUnchanged + atThreshold.ttftNotWorse, of: trials),
                ])
            }
        }
        print(table.render(indent: "   "))

        // Pass counts: a check that passes 9 times in 10 on base and never on head, among 20 steady checks.
        let steady = Array(repeating: (base: 1.0, head: 1.0), count: 20)
        let dropped = calibration.run(
            .init(suites: [[8]], repetitions: 10, coefficientOfVariation: 0.1, checks: [(0.9, 0.0)] + steady), trials: trials, seed: 13)
        let flaky = calibration.run(
            .init(suites: [[8]], repetitions: 10, coefficientOfVariation: 0.1, checks: [(0.5, 0.5)] + steady), trials: trials, seed: 14)
        print(
            "\n   Pass counts, 10 repetitions: "
                + "a check at 90% on base and 0% on head is a regression in \(rate(dropped.checkRegression, of: trials)); "
                + "one at 50% on both sides in \(rate(flaky.checkRegression, of: trials))")
    }

    /// Separately recorded runs (`compare` of two runs, not one paired run): each run offset as a
    /// whole — the stated normal spread (× 1, 1.5, 2) and the measured heavy tail — decided with
    /// the run-to-run term, and, for what the tail costs, with the same term without its tail
    /// (z·√(2σ² + se²) alone). A/A rates with their 95% Clopper–Pearson intervals, slowdowns of
    /// TTFT caught, and the median smallest TTFT change each comparison could call.
    private func recordedRuns(_ calibration: GateCalibration, shipped: [[Int]]) {
        let tail = RunToRunSpread.stated.heavyTail ?? .measured
        var normalOnly = RunToRunSpread.stated
        normalOnly.heavyTail = nil
        print(
            "\nSeparately recorded runs (\(trials) comparisons each; every value varies by 10%; each run offset on the log scale by "
                + "the stated spread (TTFT 3%, decode 5%, …) × a scale, and "
                + String(format: "%.0f%% of runs %.0f–%.0f%% slower", tail.share * 100, tail.smallest * 100, tail.largest * 100)
                + "; decided with the stated run-to-run term as `compare` decides them, and with its normal part alone)")
        var table = TextTable([
            .init("scenario", .left), .init("reps"), .init("spread ×"), .init("A/A: any regression", .left),
            .init("normal part alone", .left), .init("TTFT +20%"), .init("+30%"), .init("+50%"), .init("+20%, normal part alone"),
            .init("median TTFT floor"), .init("normal part alone"),
        ])
        var shapes: [(String, [[Int]], Double)] = [
            ("eight 1-turn conversations", [Array(repeating: 1, count: 8)], 0), ("one 8-turn conversation, shared 0.55", [[8]], 0.55),
        ]
        if !shipped.isEmpty { shapes.append(("the shipped suites' shape, shared 0.55", shipped, 0.55)) }
        func floor(_ outcome: GateCalibration.Outcome) -> String {
            outcome.medianTTFTFloor.map { $0.isFinite ? String(format: "%+.1f%%", $0 * 100) : "none" } ?? "–"
        }
        func interval(_ outcome: GateCalibration.Outcome) -> String {
            "\(outcome.anyRegression)/\(trials) " + (outcome.anyRegressionInterval.map { $0.percentText() } ?? "")
        }
        for (name, shape, shared) in shapes {
            for repetitions in [2, 3, ComparisonSettings.defaultRepetitions] {
                for scale in [1.0, 1.5, 2.0] {
                    func run(_ slowdown: Double, assumed: RunToRunSpread = .stated, seed: UInt64) -> GateCalibration.Outcome {
                        calibration.run(
                            .init(
                                suites: shape, repetitions: repetitions, coefficientOfVariation: 0.1, sharedVariance: shared,
                                slowdown: slowdown, recorded: GateCalibration.RecordedRuns(spreadScale: scale, assumed: assumed)),
                            trials: trials, seed: seed)
                    }
                    let same = run(0, seed: 31), sameNormal = run(0, assumed: normalOnly, seed: 31)
                    var row = [name, String(repetitions), String(format: "%.1f", scale), interval(same), interval(sameNormal)]
                    if scale == 1 {
                        let caught = [0.2, 0.3, 0.5].map { run($0, seed: 32) }
                        let caughtNormal = run(0.2, assumed: normalOnly, seed: 32)
                        row += caught.map { rate($0.ttftRegression, of: trials) } + [rate(caughtNormal.ttftRegression, of: trials)]
                        row += [floor(same), floor(sameNormal)]
                    } else {
                        row += ["", "", "", "", "", ""]
                    }
                    table.add(row)
                }
            }
        }
        print(table.render(indent: "   "))
    }

    private func rate(_ count: Int, of total: Int) -> String {
        String(format: "%d/%d (%.1f%%)", count, total, Double(count) / Double(max(total, 1)) * 100)
    }

    // MARK: The real model, through `chateval run --baseline`

    /// The suite of the real comparisons: eight one-turn questions, whose first token waits for
    /// the whole prompt, system prompt included.
    static func suiteText(system: String) -> String {
        let questions = [
            "What is the capital of France?", "Name three colours of the rainbow.", "What do bees make?",
            "How many legs does a spider have?", "What is the boiling point of water in Celsius?",
            "Which planet is known as the red planet?", "What is the largest ocean on Earth?", "Who wrote Romeo and Juliet?",
        ]
        return "name: gate\ndefaults:\n  max_tokens: 16\n  system: \"\(system)\"\nconversations:\n"
            + questions.enumerated().map { "  - {id: q\($0.offset + 1), turns: [\"\($0.element)\"]}\n" }.joined()
    }

    /// A throwaway repository of three commits: the suite, the same suite again (an A/A pair:
    /// HEAD~1 → HEAD at `same`), and a longer system prompt (`slower`). The change a user might
    /// make: four more tokens of system prompt (29 → 33 with a one-word question), which slowed
    /// every first token by about 10% on the development machine — the size of change the gate must catch.
    private func repository(model: String) async throws -> (folder: URL, same: String, slower: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-gate-repo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("suites"), withIntermediateDirectories: true)
        let system = "You are a concise assistant. Answer every question in one short sentence."
        func git(_ arguments: String...) async throws -> String {
            let result = try await Program.run(
                "/usr/bin/git", ["-C", folder.path, "-c", "user.name=bench", "-c", "user.email=bench@example.com"] + arguments)
            guard result.status == 0 else { throw BenchError("git \(arguments.joined(separator: " ")): \(result.errors)") }
            return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func write(_ text: String, _ path: String) throws { try Data(text.utf8).write(to: folder.appendingPathComponent(path)) }
        _ = try await git("init", "-q", "-b", "main")
        try write("model:\n  path: \(model)\nsuites: suites\nreports: reports\n", "chateval.yaml")
        try write("reports/\n", ".gitignore")
        try write(Self.suiteText(system: system), "suites/gate.yaml")
        _ = try await git("add", "-A")
        _ = try await git("commit", "-qm", "the gate suite")
        try write("A note that changes nothing the run reads.\n", "NOTES.md")
        _ = try await git("add", "-A")
        _ = try await git("commit", "-qm", "a change that changes nothing")
        let same = try await git("rev-parse", "HEAD")
        try write(Self.suiteText(system: system + " Be very brief."), "suites/gate.yaml")
        _ = try await git("commit", "-qam", "a longer system prompt")
        let slower = try await git("rev-parse", "HEAD")
        return (folder, same, slower)
    }

    private func real(model: String) async throws {
        guard let chateval else { throw ValidationError("--chateval (the release binary) is needed for the real-model comparisons") }
        let (folder, same, slower) = try await repository(model: model)
        defer { try? FileManager.default.removeItem(at: folder) }
        let load = MachineLoad.sample(over: 1)
        print(
            "\nThe gate on the real model (\(URL(fileURLWithPath: model).lastPathComponent)) "
                + "through `chateval run --baseline HEAD~1` in a throwaway repository; "
                + "\(realComparisons) comparisons of each kind; machine \(load.summary)"
                + "\(beside.isEmpty ? "" : "; beside it: \(beside)")\(runBusyThreshold.map { "; --busy-threshold \($0)" } ?? "")"
        )
        try await Burner.running(beside) {
            try await comparisons(chateval: chateval, folder: folder, same: same, slower: slower)
        }
    }

    private func comparisons(chateval: String, folder: URL, same: String, slower: String) async throws {
        var table = TextTable([
            .init("comparison", .left), .init("design", .left), .init("reported a regression"), .init("TTFT verdicts", .left),
            .init("exact ledger: differed / gated"), .init("reps per side (median)"), .init("replays left out"),
            .init("seconds (median)"),
        ])
        let designs = repetitionCounts.map { $0 == 0 ? "rounds" : String($0) }
        for design in designs {
            let kinds = (slowdownOnly ? [] : [("A/A", same)]) + (aaOnly ? [] : [("system prompt 4 tokens longer", slower)])
            for (name, commit) in kinds {
                _ = try await Program.run("/usr/bin/git", ["-C", folder.path, "checkout", "-q", commit])
                var flagged = 0, leftOut = 0, measured = 0, ledgerDiffered = 0, ledgerGated = 0
                var verdicts: [String: Int] = [:]
                var repetitions: [Double] = [], seconds: [Double] = []
                for index in 1...realComparisons {
                    var arguments = ["run", "--baseline", "HEAD~1", "--format", "json"]
                    if design != "rounds" { arguments += ["--repeat", design] }
                    if let runMaxRepeat { arguments += ["--max-repeat", String(runMaxRepeat)] }
                    if let runTimeBudget { arguments += ["--time-budget", runTimeBudget] }
                    if let runBusyThreshold { arguments += ["--busy-threshold", runBusyThreshold] }
                    let started = Date()
                    let result = try await Program.run(chateval, arguments, in: folder)
                    let elapsed = Date().timeIntervalSince(started)
                    // 0 no regression, 1 a regression, 4 no verdict (nothing measured on both sides).
                    guard [0, 1, 4].contains(result.status),
                        let comparison = try? ResultWriter.makeDecoder().decode(Comparison.self, from: Data(result.output.utf8))
                    else {
                        throw BenchError(
                            "chateval \(arguments.joined(separator: " ")) exited \(result.status): \(result.errors.suffix(2000))")
                    }
                    if comparison.hasRegression { flagged += 1 }
                    if comparison.ledger?.changes.isEmpty == false || comparison.ledger?.checks.isEmpty == false { ledgerDiffered += 1 }
                    if comparison.ledger?.hasRegression == true { ledgerGated += 1 }
                    let ttft = comparison.suites.first?.metrics.first { $0.metric == .timeToFirstToken }
                    verdicts[ttft?.verdict.words ?? "none", default: 0] += 1
                    let reps = comparison.sequential?.repetitions ?? comparison.design.looks.last ?? 0
                    repetitions.append(Double(reps))
                    seconds.append(elapsed)
                    leftOut +=
                        comparison.load.base.leftOut + comparison.load.head.leftOut + comparison.load.base.remeasured
                        + comparison.load.head.remeasured
                    measured += comparison.load.base.sampled + comparison.load.head.sampled
                    let regressed =
                        comparison.metricRegressions.map(\.change.metric.name) + (comparison.quality.hasRegression ? ["checks"] : [])
                        + (comparison.ledger?.hasRegression == true ? ["the exact ledger"] : [])
                    // Nothing measured on a side (every replay left out on a busy machine): say so, not "nan".
                    let ttftText =
                        if let ttft, let base = ttft.baseMedian, let head = ttft.headMedian, base.isFinite, head.isFinite {
                            String(
                                format: "TTFT %.1f → %.1f ms, %+.1f%% [%+.1f%%, %+.1f%%]: %@", base * 1000, head * 1000,
                                (ttft.change ?? .nan) * 100, (ttft.changeLower ?? .nan) * 100, (ttft.changeUpper ?? .nan) * 100,
                                ttft.verdict.words)
                        } else {
                            "TTFT " + (ttft?.verdict ?? .notMeasured).words
                        }
                    print(
                        String(
                            format: "   %@, %@ %d/%d: %@; %@; %d reps, %@; %.0f s", name, design, index, realComparisons,
                            regressed.isEmpty ? "no regression" : "regression in " + regressed.joined(separator: ", "), ttftText,
                            reps, comparison.sequential.map { $0.stop.rawValue } ?? "fixed", elapsed))
                }
                table.add([
                    name, design == "rounds" ? "in rounds" : "\(design) fixed", "\(flagged) of \(realComparisons)",
                    verdicts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
                    "\(ledgerDiffered) / \(ledgerGated)", String(format: "%.0f", median(repetitions)), "\(leftOut) of \(measured)",
                    String(format: "%.0f", median(seconds)),
                ])
            }
        }
        print("\n" + table.render(indent: "   "))
    }
}
