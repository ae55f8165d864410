import ArgumentParser
import ChatEvalCompare
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// The CI gate's own error rates: how often it false-alarms on identical builds and how often it
/// catches a real slowdown — on seeded synthetic samples (exact, fast), and on the real model.
struct GateBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "gate", abstract: "The gate's false-alarm rate and power, synthetic and on the real model.")

    @Option(help: "GGUF model for the real-model comparisons.") var model: String?
    @Option(help: "Synthetic comparisons per scenario.") var trials: Int = 1000
    @Option(help: "Real-model comparisons of each kind (A/A and slowdown); 0 to skip them.") var realComparisons: Int = 0
    @Option(help: "Repetitions per side of each real comparison.") var repetitions: Int = ComparisonSettings.defaultRepetitions
    @Option(help: "Suites whose shape (turns per suite) the synthetic scenario copies.") var suites: String = "suites"
    @Flag(help: "Real-model comparisons with the slower head only, no A/A ones (to measure power at other repetitions).") var slowdownOnly = false

    func run() async throws {
        synthetic()
        if realComparisons > 0 {
            guard let model else { throw ValidationError("--model is needed for real-model comparisons") }
            try await real(model: model)
        }
    }

    // MARK: Synthetic

    private func synthetic() {
        let settings = ComparisonSettings.default
        let calibration = GateCalibration(settings: settings)
        let shipped = (try? FileManager.default.contentsOfDirectory(atPath: suites))?.filter { $0.hasSuffix(".yaml") }.sorted()
            .compactMap { try? SuiteLoader.load(path: suites + "/" + $0) }.map(\.turnCount) ?? []
        print("\nThe gate on seeded synthetic samples (\(trials) comparisons each; every value varies by 10%; "
            + "\(settings.preset) settings: false-alarm rate \(settings.familyErrorRate) for the whole comparison, threshold 5%)")
        var table = TextTable([.init("scenario", .left), .init("repetitions"), .init("A/A: any regression"), .init("A/A: any change"),
                               .init("10% slower TTFT caught"), .init("underpowered")])
        var scenarios: [(String, [Int], Int)] = [("one 8-turn suite", [8], ComparisonSettings.defaultRepetitions)]
        if !shipped.isEmpty { scenarios.append(("the shipped suites' shape \(shipped)", shipped, ComparisonSettings.defaultRepetitions)) }
        scenarios.append(("one 8-turn suite, 2 samples per side", [8], 2))
        for (name, turns, repetitions) in scenarios {
            let same = calibration.run(.init(suiteTurns: turns, repetitions: repetitions, coefficientOfVariation: 0.1), trials: trials, seed: 11)
            let slower = calibration.run(.init(suiteTurns: turns, repetitions: repetitions, coefficientOfVariation: 0.1, slowdown: 0.1),
                                         trials: trials, seed: 12)
            table.add([name, String(repetitions), rate(same.anyRegression, of: trials), rate(same.anyChange, of: trials),
                       rate(slower.ttftRegression, of: trials), rate(slower.ttftUnderpowered, of: trials)])
        }
        print(table.render(indent: "   "))
    }

    private func rate(_ count: Int, of total: Int) -> String {
        String(format: "%d/%d (%.1f%%)", count, total, Double(count) / Double(max(total, 1)) * 100)
    }

    // MARK: The real model

    /// A question-and-answer suite: single-turn conversations, whose first token waits for the
    /// whole prompt, system prompt included.
    private func suite(system: String) throws -> Suite {
        let questions = [
            "What is the capital of France?", "Name three colours of the rainbow.", "What do bees make?",
            "How many legs does a spider have?", "What is the boiling point of water in Celsius?",
            "Which planet is known as the red planet?", "What is the largest ocean on Earth?", "Who wrote Romeo and Juliet?",
        ]
        let yaml = "name: gate\ndefaults:\n  max_tokens: 16\n  system: \"\(system)\"\nconversations:\n"
            + questions.enumerated().map { "  - {id: q\($0.offset + 1), turns: [\"\($0.element)\"]}\n" }.joined()
        return try SuiteLoader.parse(yaml, file: "gate.yaml")
    }

    private func real(model: String) async throws {
        let runtime = try LlamaChatRuntime(.init(modelPath: model, threads: ProcessInfo.processInfo.activeProcessorCount,
                                                 build: ProcessInfo.processInfo.environment["CHATEVAL_LLAMA_BUILD"]))
        let system = "You are a concise assistant. Answer every question in one short sentence."
        // The change a user might make: a longer system prompt, which every question's first token
        // now waits for. Four more tokens (29 → 33 with a one-word question; the line below prints
        // both) slowed the first token by about 10% here, the size of change the gate must catch.
        let longer = system + " Be very brief."
        let base = try suite(system: system), same = try suite(system: system), slower = try suite(system: longer)
        let load = MachineLoad.sample(over: 1)
        print("\nThe gate on the real model (\(URL(fileURLWithPath: model).lastPathComponent)): \(realComparisons) comparisons \(slowdownOnly ? "with the slower head" : "of each kind"), "
            + "\(repetitions) repetitions per side, base and head interleaved as `run --baseline` does; machine \(load.summary)")
        print("   head of the slowdown: the system prompt grows from \(runtime.promptTokens(for: [.system(system), .user("x")])?.count ?? 0) "
            + "to \(runtime.promptTokens(for: [.system(longer), .user("x")])?.count ?? 0) tokens of prompt")

        var table = TextTable([.init("comparison", .left), .init("reported a regression"), .init("TTFT change (median of estimates)"),
                               .init("TTFT verdicts", .left)])
        let kinds = (slowdownOnly ? [] : [("A/A: the same suite on both sides", same)]) + [("head's system prompt longer", slower)]
        for (name, head) in kinds {
            var flagged = 0
            var estimates: [Double] = []
            var verdicts: [ChangeVerdict: Int] = [:]
            for index in 1...realComparisons {
                let comparison = try await compare(base: base, head: head, runtime: runtime)
                if comparison.hasRegression { flagged += 1 }
                let ttft = comparison.suites.first?.metrics.first { $0.metric == .timeToFirstToken }
                if let change = ttft?.change { estimates.append(change) }
                if let verdict = ttft?.verdict { verdicts[verdict, default: 0] += 1 }
                // What decided: TTFT's medians, change, threshold and verdict, and every metric that regressed.
                let regressed = comparison.metricRegressions.map(\.change.metric.name) + (comparison.quality.hasRegression ? ["checks"] : [])
                print(String(format: "   %@ %d/%d: %@; TTFT %.1f → %.1f ms, %+.1f%% [%+.1f%%, %+.1f%%], threshold %.1f%%, p %.1e: %@ (%@)",
                             name, index, realComparisons,
                             regressed.isEmpty ? "no regression" : "regression in " + regressed.joined(separator: ", "),
                             (ttft?.baseMedian ?? .nan) * 1000, (ttft?.headMedian ?? .nan) * 1000, (ttft?.change ?? .nan) * 100,
                             (ttft?.changeLower ?? .nan) * 100, (ttft?.changeUpper ?? .nan) * 100, (ttft?.threshold ?? .nan) * 100,
                             ttft?.adjustedPValue ?? .nan, ttft?.verdict.rawValue ?? "not measured", ttft?.reason ?? ""))
            }
            table.add([name, "\(flagged) of \(realComparisons)", String(format: "%+.1f%%", median(estimates) * 100),
                       verdicts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")])
        }
        print("\n" + table.render(indent: "   "))
    }

    /// One interleaved base/head run and its comparison (records in a scratch folder).
    private func compare(base: Suite, head: Suite, runtime: LlamaChatRuntime) async throws -> Comparison {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-gate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = RunSettings(cacheMode: .session, repetitions: repetitions, warmupConversations: 0)
        func record() -> RunRecord {
            RunRecord(runId: ResultWriter.newRunId(), startedAt: Date(), command: ["chateval-bench", "gate"], git: nil,
                      machine: MachineInfo.current(), runtime: runtime.identity, modelSha256: nil, settings: settings)
        }
        let records = [record(), record()]
        let writers = try records.enumerated().map { index, record in
            try ResultWriter(folder: folder, record: record, suites: [SuiteSource(path: "gate.yaml", text: (index == 0 ? base : head).text)])
        }
        let runner = SuiteRunner(arms: [RunArm(label: "base", runtime: runtime, plan: RunPlan(suites: [base], settings: settings)),
                                        RunArm(label: "head", runtime: runtime, plan: RunPlan(suites: [head], settings: settings))])
        let finals = try await runner.run(into: records, writers: writers, stop: StopRequest())
        return RunComparator.compare(base: ComparedRuns(runs: [finals[0]], sources: []), head: ComparedRuns(runs: [finals[1]], sources: []),
                                     settings: .default)
    }
}
