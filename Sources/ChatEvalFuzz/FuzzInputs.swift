import ChatEvalCompare
import ChatEvalCore
import ChatEvalGrading
import ChatEvalIndex
import ChatEvalRunner
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Fixed material the targets use.
enum FuzzInputs {
    /// The suites shipped in `suites/`, found from the current folder or the package root.
    static let shippedSuites: [Suite] = {
        let folder =
            ["suites", URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../suites").path]
            .first { FileManager.default.fileExists(atPath: $0) } ?? "suites"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        return names.compactMap { try? SuiteLoader.load(path: folder + "/" + $0) }
    }()

    /// A folder of this process for the targets that read files.
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static let commit = String(repeating: "c0ffee", count: 7).prefix(40).description
    static let resultName = "20261125T000000Z-c0ffeec-fuzzrun1.json"

    /// A small complete run: two turns of one shipped-like suite, with checks and a gate.
    static let record: RunRecord = {
        let git = GitSnapshot(
            commit: commit, shortCommit: String(commit.prefix(7)), branch: "main", isDetached: false, isUnborn: false,
            modifiedCount: 0, untrackedCount: 0, commitTime: nil, commitTimeZoneOffsetMinutes: nil, subject: "fuzz",
            describe: nil, isShallow: false, workdir: "/repo")
        let runtime = RuntimeIdentity(
            engine: "llama.cpp", build: "fuzz", model: ModelIdentity(path: "/m.gguf", fileBytes: 1, description: "m"),
            chatTemplate: "embedded", chatTemplateSource: "model", contextSize: 4096, batchSize: 512, threads: 2)
        var record = RunRecord(
            runId: "fuzzrun1", startedAt: Date(timeIntervalSince1970: 1_800_000_000), command: ["chateval", "run"], git: git,
            machine: MachineInfo(
                hostname: "h", cpuModel: "cpu", logicalCores: 2, memoryBytes: 1 << 30, operatingSystem: "Linux",
                kernel: "6", architecture: "x86_64"),
            runtime: runtime, modelSha256: String(repeating: "5", count: 64),
            settings: RunSettings(cacheMode: .session, repetitions: 2, warmupConversations: 0))
        let turns = (0..<2).map { index in
            TurnRecord(
                ReplayedTurn(
                    index: index, user: "What is the capital of France?", messagesSent: 2 * index + 1, status: .answered,
                    answer: "Paris.", metrics: metrics),
                checks: [Verdict(check: "icontains", passed: index == 0, detail: "found \"Paris\"")], score: index == 0 ? 1 : 0)
        }
        record.suites = [
            SuiteRecord(
                name: "smoke", path: "suites/smoke.yaml",
                conversations: (1...2).map { repetition in
                    var conversation = ConversationRecord(
                        id: "capitals", repetition: repetition, warmup: false, systemPrompt: "Be brief.",
                        options: GenerationOptions(), turns: turns)
                    conversation.load = ReplayLoad(otherCores: 0.01, seconds: 1)
                    return conversation
                }, gates: [GateOutcome(gate: "min_pass_rate", passed: true, expected: "≥ 0.5", found: "0.5")])
        ]
        record.status = .complete
        record.gatesPassed = true
        return record
    }()

    static var resultFile: Data { (try? ResultWriter.makeEncoder(pretty: true).encode(record)) ?? Data() }

    /// A note of two runs: `record` as a note line, twice (a later run of the same commit).
    static var noteText: Data {
        let line = (try? RunNote.line(for: record)) ?? ""
        return Data((line + "\n" + line + "\n").utf8)
    }

    /// A journal of `record`'s run: its header (with the suite's text), then its turns.
    static var journalFile: Data {
        let suite =
            "name: smoke\nconversations:\n  - id: capitals\n    turns:\n      - What is the capital of France?\n      - And of Italy?\n"
        var header = record
        header.suites = []
        header.status = .running
        let encoder = ResultWriter.makeEncoder(pretty: false)
        var lines = [
            (try? encoder.encode(JournalHeader(record: header, suites: [SuiteSource(path: "suites/smoke.yaml", text: suite)]))) ?? Data()
        ]
        for conversation in record.suites[0].conversations {
            for turn in conversation.turns {
                lines.append(
                    (try? encoder.encode(
                        JournalEntry(
                            suite: "smoke", conversation: "capitals", repetition: conversation.repetition,
                            warmup: false, turn: turn.replayed))) ?? Data())
            }
        }
        return Data(lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n").utf8)
    }

    /// An index built from `resultFile`: the SQLite file's bytes.
    static var indexFile: Data {
        let reports = scratch.appendingPathComponent("seed-reports")
        try? FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try? resultFile.write(to: reports.appendingPathComponent(resultName))
        let url = SQLiteResultIndex.defaultURL(reports: reports)
        guard let index = try? SQLiteResultIndex(url: url, rebuild: true) else { return Data() }
        _ = try? index.update(folder: reports)
        return FileContents.read(atPath: url.path) ?? Data()
    }

    static let metrics = TurnMetrics(
        promptTokens: 120, reusedTokens: 80, generatedTokens: 12, timeToFirstToken: 0.2, prefillTime: 0.1, decodeTime: 0.3,
        totalTime: 0.5, interTokenLatencies: Array(repeating: 0.03, count: 11), stopReason: .endOfGeneration, peakResidentBytes: 250 << 20)
}
