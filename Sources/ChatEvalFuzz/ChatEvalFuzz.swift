import ChatEvalCompare
import ChatEvalCore
import ChatEvalGrading
import ChatEvalIndex
import ChatEvalRunner
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// What a fuzz input is fed to: everything that reads text a user or a model controls.
enum FuzzTarget: String, CaseIterable {
    /// A suite file: loaded, validated, and when valid every check built and run on an answer.
    case suite
    /// An answers file, read and graded against every shipped suite.
    case answers
    /// A project file (chateval.yaml).
    case project
    /// A result file: decoded, validated, and when valid compared with itself and digested.
    case result
    /// A journal a run left: read and recovered into a result.
    case journal
    /// The results index's SQLite file, damaged: opened (rebuilt when it must be), updated, queried.
    case index
    /// A promptfoo config: run as the suite it converts to (prompts × tests × list values, aliases
    /// expanded within the reading budget), and converted to suite YAML as `import` writes it.
    case promptfoo
    /// A git note of `refs/notes/chateval`: its lines read as runs (each validated), and the
    /// runs it holds compared with each other as `compare` and `history` would.
    case notes

    /// Feeds `data` to the target. Any outcome but a crash or a hang is fine: errors are the
    /// expected answer to most inputs.
    func exercise(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        switch self {
        case .suite:
            guard let suite = try? SuiteLoader.parse(text, file: "fuzz.yaml") else { return }
            // The suite is valid: replay it as the replayer renders it — each user message
            // expanded from the variables and the turns before (answers from the input, so that
            // chained quotes grow) within the expansion limit — and grade the replay.
            for conversation in suite.conversations {
                var variables = ConversationVariables(variables: conversation.script.variables)
                var turns: [ReplayedTurn] = []
                for (index, template) in conversation.script.userMessages.enumerated() {
                    guard let user = try? template.render({ variables.value(of: $0) }) else { break }
                    let answer = String(text.suffix(300)) + (turns.last?.answer ?? "")
                    let turn = ReplayedTurn(
                        index: index, user: user, messagesSent: 2 * index + 1, status: .answered,
                        answer: String(answer.prefix(4_096)), metrics: FuzzInputs.metrics)
                    variables.record(turn)
                    turns.append(turn)
                }
                _ = ConversationGrader.grade(conversation, turns: turns)
            }
        case .answers:
            for suite in FuzzInputs.shippedSuites {
                guard let lines = try? AnswerGrader.parse(text, file: "fuzz.jsonl", for: suite) else { continue }
                _ = AnswerGrader.grade(suite, answers: lines)
            }
        case .project:
            _ = try? ProjectFile.parse(text, source: "chateval.yaml", environment: ["HOME": "/home/fuzz", "CHATEVAL_CACHE": "/cache"])
        case .notes:
            let runs = RunNote.records(in: text).records
            guard !runs.isEmpty else { return }
            let compared = ComparedRuns(runs: runs, sources: runs.map { _ in "note" })
            _ = RunComparator.compare(base: compared, head: compared, settings: .default)
            for run in runs { _ = RunDigest(run, source: "note") }
        case .promptfoo:
            _ = try? SuiteLoader.parse(text, file: "promptfooconfig.yaml")
            let url = FuzzInputs.scratch.appendingPathComponent("promptfooconfig.yaml")
            guard (try? data.write(to: url)) != nil else { return }
            _ = try? SuiteLoader.importPromptfoo(path: url.path)
        case .result:
            guard let record = try? ResultWriter.makeDecoder().decode(RunRecord.self, from: data), record.validationProblems.isEmpty else {
                return
            }
            let runs = ComparedRuns(runs: [record], sources: ["fuzz.json"])
            _ = RunComparator.compare(base: runs, head: runs, settings: .default)
            _ = RunDigest(record, source: "fuzz.json")
        case .journal:
            let url = FuzzInputs.scratch.appendingPathComponent("fuzz.journal")
            guard (try? data.write(to: url)) != nil, let journal = try? Journal.read(url) else { return }
            _ = try? JournalRecovery.record(from: journal)
        case .index:
            // A reports folder with one result file and the mutated bytes as its index.
            let reports = FuzzInputs.scratch.appendingPathComponent("reports")
            let url = SQLiteResultIndex.defaultURL(reports: reports)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: reports.appendingPathComponent(FuzzInputs.resultName).path) {
                try? FuzzInputs.resultFile.write(to: reports.appendingPathComponent(FuzzInputs.resultName))
            }
            for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            guard (try? data.write(to: url)) != nil, let index = try? SQLiteResultIndex(url: url) else { return }
            _ = try? index.update(folder: reports)
            _ = try? index.runs(commits: [FuzzInputs.commit], metrics: Set(Metric.allCases))
        }
    }
}

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

#if CHATEVAL_LIBFUZZER
    /// libFuzzer's driver (`make fuzz`). SwiftPM makes an executable's `main` the module's
    /// `ChatEvalFuzz_main`, so that symbol hands the command line to libFuzzer, which then calls
    /// `fuzzOneInput` for every input; the target comes from CHATEVAL_FUZZ_TARGET.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runLibFuzzer(
        _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    @_cdecl("ChatEvalFuzz_main")
    func libFuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        var count = argc
        var arguments = argv
        return runLibFuzzer(&count, &arguments) { start, length in
            let target = ProcessInfo.processInfo.environment["CHATEVAL_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:)) ?? .suite
            target.exercise(start.map { Data(bytes: $0, count: length) } ?? Data())
            return 0
        }
    }
#else
    /// `chateval-fuzz`: a bounded, reproducible mutational fuzzer over the same targets (`make test`
    /// runs it); `make fuzz` builds this target with libFuzzer instead.
    @main
    struct ChatEvalFuzz {
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            var seconds = 60.0, seed: UInt64 = 1, limit = 5.0
            var iterator = arguments.makeIterator()
            while let argument = iterator.next() {
                switch argument {
                case "--seconds": seconds = iterator.next().flatMap(Double.init) ?? seconds
                case "--seed": seed = iterator.next().flatMap(UInt64.init) ?? seed
                case "--limit": limit = iterator.next().flatMap(Double.init) ?? limit
                case "--seeds":
                    // Writes the seed inputs as a corpus for libFuzzer: DIR/<target>/<n>.
                    guard let folder = iterator.next() else { break }
                    for target in FuzzTarget.allCases {
                        let directory = URL(fileURLWithPath: folder).appendingPathComponent(target.rawValue)
                        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                        for (index, data) in MutationalFuzzer.seeds(for: target).enumerated() {
                            try? data.write(to: directory.appendingPathComponent("seed-\(index)"))
                        }
                    }
                    return
                default:
                    FileHandle.standardError.write(Data("usage: chateval-fuzz [--seconds S] [--seed N] [--limit S] | --seeds DIR\n".utf8))
                    exit(2)
                }
            }
            let outcome = MutationalFuzzer(seed: seed, seconds: seconds, limitPerInput: limit).run()
            exit(outcome ? 0 : 1)
        }
    }
#endif
