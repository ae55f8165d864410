import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// The result file format and its published JSON Schema agree.
@Suite struct RunSchemaTests {
    static let schemaURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("reports/schema/run.schema.json")

    /// A record with every optional field set, so that every key the encoder can write appears.
    static func fullRecord() -> RunRecord {
        let metrics = TurnMetrics(
            promptTokens: 90, reusedTokens: 60, generatedTokens: 5, timeToFirstToken: 0.1, prefillTime: 0.08, decodeTime: 0.08,
            totalTime: 0.2, interTokenLatencies: [0.02, 0.02, 0.02, 0.02], stopReason: .endOfGeneration, peakResidentBytes: 400 << 20,
            prefillPeakResidentBytes: 390 << 20, decodePeakResidentBytes: 400 << 20, kvCacheBytesInUse: 3 << 20,
            server: ServerFigures(
                promptEvaluatedTokens: 30, cachedTokens: 60, prefillTime: 0.07, prefillTokensPerSecond: 420, generatedTokens: 5,
                decodeTime: 0.08, decodeTokensPerSecond: 60, backend: "node-1", usageReported: true, contentDeltas: 5),
            retries: [RetryAttempt(attempt: 1, code: .rateLimited, message: "429", elapsed: 0.01, delay: 1, retryAfter: 1)],
            reusableTokens: 80,
            reuseMiss: ReuseMiss(cause: .coldCache, position: 0, before: "", cached: "<|im_start|>", sent: "<|im_start|>"),
            firstTokenParts: FirstTokenParts(
                template: 0.001, tokenize: 0.001, prefill: 0.08, reevaluated: 0.02, firstSample: 0.01, other: 0.008))
        let git = GitSnapshot(
            commit: String(repeating: "a", count: 40), shortCommit: "aaaaaaa", branch: "main", isDetached: false, isUnborn: false,
            modifiedCount: 1, untrackedCount: 2, commitTime: Date(timeIntervalSince1970: 1_800_000_000), commitTimeZoneOffsetMinutes: 60,
            subject: "s", describe: "v1.0-2-gaaaaaaa", isShallow: false, workdir: "/repo")
        let runtime = RuntimeIdentity(
            engine: "llama.cpp", build: "b", model: ModelIdentity(path: "/m.gguf", fileBytes: 1, description: "d", parameters: 2),
            chatTemplate: "gemma", chatTemplateSource: "builtin", chatTemplateHash: String(repeating: "b", count: 64), contextSize: 4096,
            batchSize: 512, threads: 2,
            kvCacheBytes: 3, loadSeconds: 0.5, warmupSeconds: 0.03,
            memory: EngineMemory(
                residentBytesBeforeLoad: 1, loadPeakResidentBytes: 2, modelBytes: 3, kvCacheBytes: 4, computeBytes: 5, outputBytes: 6),
            inProcess: true, endpoint: "http://127.0.0.1:8080/v1", slidingWindow: 512, slidingWindowCache: .window)
        var record = RunRecord(
            runId: "abcdefgh", startedAt: Date(timeIntervalSince1970: 1_800_000_100), command: ["chateval", "run"], git: git,
            machine: MachineInfo.current(), runtime: runtime, modelSha256: String(repeating: "0", count: 64),
            settings: RunSettings(
                cacheMode: .session, repetitions: 2, warmupConversations: 1,
                sources: ["model": .projectFile, "threads": .commandLine, "repetitions": .builtIn]))
        record.environment = RunEnvironment(
            start: MachineLoad(
                loadAverage1: 0.1, loadAverage5: 0.2, otherProcessesCores: 0.3,
                busiest: [.init(pid: 7, name: "swift-frontend", cores: 0.3)], frequencyGovernor: "performance"),
            end: MachineLoad(loadAverage1: 0.1, loadAverage5: 0.2, otherProcessesCores: 0, busiest: [], frequencyGovernor: nil))
        record.project = ProjectFileRecord(path: "chateval.yaml", sha256: String(repeating: "c", count: 64))
        record.role = .head
        record.pairedRunId = "zyxwvuts"
        let turns = [
            TurnRecord(
                ReplayedTurn(index: 0, user: "hi", messagesSent: 2, status: .answered, answer: "hello", metrics: metrics),
                checks: [Verdict(check: "icontains", passed: true, score: 1, detail: "found", error: "none", weight: 2)], score: 1),
            TurnRecord(
                ReplayedTurn(
                    index: 1, user: "more", messagesSent: 4, status: .failed,
                    failure: RuntimeFailure(
                        .unavailable, "503",
                        retries: [RetryAttempt(attempt: 1, code: .unavailable, message: "503", elapsed: 0.01, delay: 0.5)]))),
            TurnRecord(ReplayedTurn(index: 2, user: "again", messagesSent: 0, status: .skipped, skipReason: "turn 2 failed")),
        ]
        record.suites = [
            SuiteRecord(
                name: "s", path: "s.yaml",
                conversations: [
                    ConversationRecord(
                        id: "c", repetition: 1, warmup: false, systemPrompt: "sys",
                        options: GenerationOptions(stop: ["\n\n"]), turns: turns,
                        checks: [Verdict(check: "ttft", passed: false, detail: "slow")])
                ], gates: [GateOutcome(gate: "min_pass_rate", passed: true, expected: "≥ 0.5", found: "1")],
                comparison: ComparisonOverrides(
                    minimumSamples: 4, thresholds: [.timeToFirstToken: ThresholdOverride(relative: 0.1, absolute: 0.01)]),
                text: "name: s")
        ]
        record.shard = RunShard(index: 1, count: 2)
        let distribution = Distribution([0.1, 0.2])
        record.load = LoadSummary(
            concurrency: 2, sweepId: "sweep", duration: 3, requests: 2, failedRequests: 1, errorRate: 0.5, requestsPerSecond: 0.3,
            outputTokensPerSecond: 1.7, timeToFirstToken: distribution, interTokenLatency: distribution, goodRequests: 1, goodput: 0.3,
            objectives: [.init(suite: "s", objective: "ttft_p95", bound: 1, measured: 0.2, met: true)])
        record.gatesPassed = true
        record.status = .complete
        record.endedAt = Date(timeIntervalSince1970: 1_800_000_200)
        return record
    }

    @Test func everyKeyTheEncoderWritesIsInTheSchema() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
        let encoded = try ResultWriter.makeEncoder(pretty: false).encode(Self.fullRecord())
        let document = try JSONSerialization.jsonObject(with: encoded)
        let undocumented = SchemaCoverage.undocumentedKeys(in: document, schema: schema, root: schema)
        #expect(undocumented.isEmpty, "keys missing from run.schema.json: \(undocumented)")
    }

    @Test func recordsSurviveARoundTrip() throws {
        let record = Self.fullRecord()
        let data = try ResultWriter.makeEncoder(pretty: true).encode(record)
        let decoded = try ResultWriter.makeDecoder().decode(RunRecord.self, from: data)
        #expect(decoded.suites[0].conversations[0].turns == record.suites[0].conversations[0].turns)
        #expect(decoded.git == record.git)
        #expect(decoded.status == .complete)
        #expect(String(decoding: data, as: UTF8.self).contains("\"time_to_first_token\""))  // snake_case on disk
    }
}
