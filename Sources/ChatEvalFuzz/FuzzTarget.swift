import ChatEvalCompare
import ChatEvalCore
import ChatEvalGrading
import ChatEvalIndex
import ChatEvalReport
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
    /// Multi-IF's CSV (`import multi-if`) and IFBench's JSON Lines (`import ifbench`): imported
    /// (streamed under the suite's limits), the suite written parsed back, and its conversations
    /// replayed and graded as a suite's are (the imported IFEval checks with the file's kwargs).
    case multiIF = "multi-if"
    case ifbench
    /// A bisection's journal: read as `bisect` reads it (bounded, checked), then the bisection
    /// resumed from it alone — every probe it holds read back, the rest left undone — and reported.
    case bisectJournal = "bisect-journal"

    /// Feeds `data` to the target. Any outcome but a crash or a hang is fine: errors are the
    /// expected answer to most inputs.
    func exercise(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        switch self {
        case .suite:
            guard let suite = try? SuiteLoader.parse(text, file: "fuzz.yaml") else { return }
            Self.replayAndGrade(suite, answersFrom: text)
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
        case .multiIF, .ifbench:
            let url = FuzzInputs.scratch.appendingPathComponent(self == .multiIF ? "fuzz.csv" : "fuzz.jsonl")
            guard (try? data.write(to: url)) != nil else { return }
            let dropUnsupported = data.count % 2 == 0
            let imported =
                self == .multiIF
                ? try? SuiteLoader.importMultiIF(path: url.path, dropUnsupported: dropUnsupported)
                : try? SuiteLoader.importIFBench(path: url.path, dropUnsupported: dropUnsupported)
            guard let yaml = imported?.yaml, let suite = try? SuiteLoader.parse(yaml, file: "imported.yaml") else { return }
            Self.replayAndGrade(suite, answersFrom: text)
        case .bisectJournal:
            let url = FuzzInputs.scratch.appendingPathComponent("bisect-journal.json")
            guard (try? data.write(to: url)) != nil else { return }
            let journal = BisectJournal.read(url, fingerprint: FuzzInputs.bisectFingerprint).journal
            _ = journal.problems
            let outcome = FuzzInputs.blocking {
                try? await Bisector(states: FuzzInputs.bisectStates).run(JournalProber(journal: journal, states: FuzzInputs.bisectStates))
            }
            if let outcome { _ = BisectReport.render(outcome) }
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

    /// Replays `suite` as the replayer renders it — each user message expanded from the
    /// variables and the turns before (answers from the input, so that chained quotes grow)
    /// within the expansion limit — and grades the replay.
    private static func replayAndGrade(_ suite: Suite, answersFrom text: String) {
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
    }
}

/// A bisection resumed from a journal alone: each probe it holds is read back (as `RevisionProber`
/// does), any other ends the bisection as interrupted.
struct JournalProber: BisectProber {
    let journal: BisectJournal
    let states: [BisectState]

    func probe(_ probe: BisectProbe) async throws -> BisectProbeResult {
        let key = BisectJournal.Key(base: states[probe.base].commit, head: states[probe.head].commit, kind: probe.kind)
        guard var result = journal.result(for: key) else { throw BisectInterruption() }
        result.resumed = true
        return result
    }
}
