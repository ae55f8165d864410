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
        var metrics = TurnMetrics(
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
        metrics.server?.cutAtMaxTokens = true
        metrics.server?.contradictions = ["the server reported 95 prompt tokens served from its cache, more than the 90 of the prompt"]
        metrics.decodeCalls = 6
        metrics.prefillBatches = 1
        metrics.kvCellsInUse = 94
        metrics.answerDigest = AnswerDigest(basis: .tokens, value: 42)
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
                sources: ["model": .projectFile, "threads": .commandLine, "repetitions": .builtIn],
                selection: SuiteSelectionRecord(patterns: ["gre*"], tags: ["smoke"], conversations: ["s.yaml": ["c"]])))
        record.environment = RunEnvironment(
            start: MachineLoad(
                loadAverage1: 0.1, loadAverage5: 0.2, otherProcessesCores: 0.3,
                busiest: [.init(pid: 7, name: "swift-frontend", cores: 0.3)], frequencyGovernor: "performance", seconds: 0.62),
            end: MachineLoad(
                loadAverage1: 0.1, loadAverage5: 0.2, otherProcessesCores: 0, busiest: [.init(pid: 8, name: "clang", cores: 0.1)],
                frequencyGovernor: "schedutil", seconds: 41.5))
        record.project = ProjectFileRecord(path: "chateval.yaml", sha256: String(repeating: "c", count: 64))
        record.role = .head
        record.pairedRunId = "zyxwvuts"
        var look = DecidedLook(looks: [3, 6], look: 2, share: 0.4, intervalShare: 0.5)
        var settings = ComparisonSettings.default
        settings.priority = [.timeToFirstToken]
        look.settings = settings
        look.overrides = ComparisonOverrides(
            preset: "strict", familyErrorRate: 0.05, confidence: 0.95, minimumSamples: 4,
            thresholds: [.timeToFirstToken: ThresholdOverride(relative: 0.1, absolute: 0.01)], busyThreshold: 0.5,
            priority: [.timeToFirstToken])
        var expectation = Expectation(
            commit: "abc1234", suite: "s", subject: "ttft", direction: .worse, check: "*", bound: 0.15,
            otherCommitsChangingInputs: ["def5678"])
        expectation.observed = true
        expectation.exceeded = ["ttft +21.0% past +15%"]
        look.expectations = [expectation]
        look.ledgerGates = LedgerGates(generatedTokens: .gate)
        look.confirmed = [DecidedLook.ConfirmedLook(look: 1, repetitions: 3, share: 0.1, intervalShare: 0.2)]
        record.decidedLook = look
        record.group = RunGroup(id: "g", index: 1, count: 2, label: "m.gguf")
        record.runtime.memory?.peakBasis = EngineMemory.aboveLoadBaseline
        record.runtime.memory?.kvBytesPerPosition = 23_040
        record.runtime.memory?.weightBytes = 92_100_000
        record.machine.memoryBandwidth = 11.5e9
        var verdict = Verdict(check: "icontains", passed: true, score: 1, detail: "found", error: "none", weight: 2)
        verdict.loose = true
        verdict.instruction = "mention {{this.user}}"
        verdict.measured = false
        verdict.echo = "the user message"
        var answered = ReplayedTurn(index: 0, user: "hi", messagesSent: 2, status: .answered, answer: "hello", metrics: metrics)
        answered.prompt = "<|im_start|>user\nhi<|im_end|>"
        let turns = [
            TurnRecord(answered, checks: [verdict], score: 1),
            TurnRecord(
                ReplayedTurn(
                    index: 1, user: "more", messagesSent: 4, status: .failed,
                    failure: RuntimeFailure(
                        .unavailable, "503",
                        retries: [RetryAttempt(attempt: 1, code: .unavailable, message: "503", elapsed: 0.01, delay: 0.5, retryAfter: 0.5)])
                )),
            TurnRecord(ReplayedTurn(index: 2, user: "again", messagesSent: 0, status: .skipped, skipReason: "turn 2 failed")),
        ]
        var conversation = ConversationRecord(
            id: "c@short", repetition: 1, warmup: false, systemPrompt: "sys", options: GenerationOptions(stop: ["\n\n"]),
            description: "greets", tags: ["smoke"], turns: turns, checks: [verdict])
        conversation.load = ReplayLoad(otherCores: 0.2, seconds: 1.5)
        conversation.leftOut = "busy: 1.2 other cores"
        conversation.variant = "short"
        record.suites = [
            SuiteRecord(
                name: "s", path: "s.yaml", description: "a suite", conversations: [conversation],
                gates: [GateOutcome(gate: "min_pass_rate", passed: true, expected: "≥ 0.5", found: "1", implied: true)],
                comparison: ComparisonOverrides(
                    preset: "strict", familyErrorRate: 0.05, confidence: 0.95, minimumSamples: 4,
                    thresholds: [.timeToFirstToken: ThresholdOverride(relative: 0.1, absolute: 0.01)], busyThreshold: 0.5,
                    priority: [.timeToFirstToken]),
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

    /// A record with nothing optional set: one suite, one conversation, one answered turn.
    static func minimalRecord() -> RunRecord {
        let machine = MachineInfo(
            hostname: "h", cpuModel: "c", logicalCores: 2, memoryBytes: 1 << 30, operatingSystem: "o", kernel: "k", architecture: "x86_64")
        let runtime = RuntimeIdentity(
            engine: "llama.cpp", build: "b", model: ModelIdentity(path: "/m.gguf", fileBytes: 1, description: "d"), chatTemplate: "gemma",
            chatTemplateSource: "builtin", contextSize: 4096, batchSize: 512, threads: 2)
        let turn = TurnRecord(ReplayedTurn(index: 0, user: "hi", messagesSent: 1, status: .answered, answer: "hello"))
        return RunRecord(
            runId: "abcdefgh", startedAt: Date(timeIntervalSince1970: 1_800_000_100), command: ["chateval"], git: nil, machine: machine,
            runtime: runtime, modelSha256: nil, settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0),
            suites: [
                SuiteRecord(
                    name: "s", path: "s.yaml",
                    conversations: [
                        ConversationRecord(
                            id: "c", repetition: 1, warmup: false, systemPrompt: nil, options: GenerationOptions(), turns: [turn])
                    ])
            ])
    }

    static func schema() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
    }

    /// The record as its result file holds it, parsed.
    static func document(_ record: RunRecord) throws -> Any {
        try JSONSerialization.jsonObject(with: try ResultWriter.makeEncoder(pretty: false).encode(record))
    }

    @Test func everyKeyTheEncoderWritesIsInTheSchema() throws {
        let schema = try Self.schema()
        let undocumented = SchemaCoverage.undocumentedKeys(in: try Self.document(Self.fullRecord()), schema: schema, root: schema)
        #expect(undocumented.isEmpty, "keys missing from run.schema.json: \(undocumented)")
    }

    /// The other way: nothing the schema documents is a key the encoder never writes.
    @Test func everyKeyTheSchemaDeclaresIsWritten() throws {
        let schema = try Self.schema()
        let unwritten = SchemaCoverage.unwrittenKeys(in: try Self.document(Self.fullRecord()), schema: schema, root: schema)
        #expect(unwritten.isEmpty, "declared in run.schema.json, never written by the encoder (or not set in fullRecord): \(unwritten)")
    }

    /// Every key the schema requires is written, even when nothing optional is set.
    @Test func everyRequiredKeyIsWritten() throws {
        let schema = try Self.schema()
        for record in [Self.minimalRecord(), Self.fullRecord()] {
            let missing = SchemaCoverage.missingRequiredKeys(in: try Self.document(record), schema: schema, root: schema)
            #expect(missing.isEmpty, "required by run.schema.json, not written: \(missing)")
        }
    }

    /// A result file without any one key the schema calls optional is one ChatEval reads: the
    /// decoder needs no key the schema does not require.
    @Test func theDecoderNeedsOnlyTheKeysTheSchemaRequires() throws {
        let schema = try Self.schema()
        for record in [Self.minimalRecord(), Self.fullRecord()] {
            let unreadable = try SchemaCoverage.withoutOneOptionalKey(try Self.document(record), schema: schema, root: schema).filter {
                let data = try JSONSerialization.data(withJSONObject: $0.document)
                return (try? ResultWriter.makeDecoder().decode(RunRecord.self, from: data)) == nil
            }.map(\.path)
            #expect(unreadable.isEmpty, "unreadable without a key run.schema.json does not require")
        }
    }

    /// Swift property paths of `value` that are nil, or an empty collection, wherever they occur
    /// (the elements of a collection, and the values of a dictionary — `[]` — count together).
    static func unsetFields(in value: Any) -> [String] {
        var unset = Set<String>()
        var set = Set<String>()
        func walk(_ value: Any, _ path: String) {
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                if let wrapped = mirror.children.first?.value {
                    set.insert(path)
                    walk(wrapped, path)
                } else {
                    unset.insert(path)
                }
            case .collection, .set, .dictionary:
                if mirror.children.isEmpty { unset.insert(path) } else { set.insert(path) }
                for child in mirror.children {
                    let pair = Mirror(reflecting: child.value).children.map(\.value)
                    walk(mirror.displayStyle == .dictionary && pair.count == 2 ? pair[1] : child.value, path + "[]")
                }
            default:
                for child in mirror.children { walk(child.value, path + "." + (child.label ?? "?")) }
            }
        }
        walk(value, "$")
        return unset.subtracting(set).sorted()
    }

    /// fullRecord holds every field, so that the two tests above see every key the encoder can write.
    @Test func theFullRecordSetsEveryField() {
        #expect(Self.unsetFields(in: Self.fullRecord()) == [])
    }

    /// Each direction catches its own mismatch, on a small schema.
    @Test func theCoverageChecksCatchMismatchesBothWays() {
        let schema: [String: Any] = [
            "type": "object", "required": ["id", "turns"],
            "properties": [
                "id": ["type": "string"], "note": ["type": "string"], "turns": ["type": "array", "items": ["$ref": "#/$defs/turn"]],
                "sources": ["type": "object", "additionalProperties": ["type": "string"]],
            ],
            "$defs": [
                "turn": [
                    "type": "object", "required": ["index"], "properties": ["index": ["type": "integer"], "answer": ["type": "string"]],
                ]
            ],
        ]
        let document: [String: Any] = [
            "id": "r", "extra": 1, "sources": ["model": "cli"], "turns": [["index": 0, "answer": "a"], ["answer": "b", "stray": true]],
        ]
        #expect(SchemaCoverage.undocumentedKeys(in: document, schema: schema, root: schema) == ["$.extra", "$.turns[].stray"])
        #expect(SchemaCoverage.unwrittenKeys(in: document, schema: schema, root: schema) == ["$.note"])
        #expect(SchemaCoverage.missingRequiredKeys(in: document, schema: schema, root: schema) == ["$.turns[].index"])
        let variants = SchemaCoverage.withoutOneOptionalKey(document, schema: schema, root: schema)
        #expect(variants.map(\.path) == ["$.extra", "$.sources", "$.turns[0].answer", "$.turns[1].answer", "$.turns[1].stray"])
        let withoutAnswer = variants.first { $0.path == "$.turns[0].answer" }?.document as? [String: Any]
        #expect((withoutAnswer?["turns"] as? [[String: Any]])?.map { $0.keys.sorted() } == [["index"], ["answer", "stray"]])
        #expect(withoutAnswer?.keys.sorted() == ["extra", "id", "sources", "turns"])
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

    /// The looks a paired run recorded as confirming a regression are indexed and truncated to
    /// by `compare`: one outside the design, or of no repetitions, is a problem with its field.
    @Test func aConfirmedLookOutsideTheDesignIsAProblem() throws {
        var record = Self.fullRecord()
        #expect(record.validationProblems.filter { $0.hasPrefix("decided_look") }.isEmpty)
        var look = try #require(record.decidedLook)
        look.confirmed = [DecidedLook.ConfirmedLook(look: 3, repetitions: 0, share: 0.1, intervalShare: 0.1)]
        record.decidedLook = look
        #expect(record.validationProblems.contains { $0.hasPrefix("decided_look.confirmed[0]: look 3 at 0 repetitions") })
    }
}
