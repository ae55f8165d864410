import ChatEvalCore
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Testing

@Suite struct SuiteRunnerTests {
    private func suite(conversations: Int, turns: Int) throws -> Suite {
        let yaml =
            "name: s\nconversations:\n"
            + (1...conversations).map { c in
                "  - id: c\(c)\n    turns: [" + (1...turns).map { "\"turn \($0)\"" }.joined(separator: ", ") + "]\n"
            }.joined()
        return try SuiteLoader.parse(yaml, file: "s.yaml")
    }

    private func replies(_ count: Int) -> [ScriptedRuntime.Reply] {
        (0..<count).map { .answer(["answer \($0)"], ScriptedRuntime.metrics(prompt: 10 + $0)) }
    }

    private func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString)")
    }

    private func record(_ runtime: ScriptedRuntime, _ settings: RunSettings) -> RunRecord {
        RunRecord(
            runId: ResultWriter.newRunId(), startedAt: Date(), command: ["test"], git: nil,
            machine: MachineInfo.current(), runtime: runtime.identity, modelSha256: nil, settings: settings)
    }

    private func decode(_ url: URL) throws -> RunRecord {
        try ResultWriter.makeDecoder().decode(RunRecord.self, from: Data(contentsOf: url))
    }

    @Test func repetitionsAndWarmupAreRecordedAsRawSamples() async throws {
        let runtime = ScriptedRuntime(replies: replies(2 * 3 + 2))
        let settings = RunSettings(cacheMode: .session, repetitions: 3, warmupConversations: 1)
        let plan = RunPlan(suites: [try suite(conversations: 1, turns: 2)], settings: settings)
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try ResultWriter(folder: directory, record: record(runtime, settings), suites: [])

        let final = try await SuiteRunner(runtime: runtime, plan: plan).run(
            into: record(runtime, settings), writer: writer, stop: StopRequest())

        #expect(final.status == .complete)
        let replays = final.suites[0].conversations
        #expect(replays.map(\.repetition) == [0, 1, 2, 3])
        #expect(replays.map(\.warmup) == [true, false, false, false])
        #expect(final.suites[0].measuredTurns.count == 6)  // warm-up not counted
        let onDisk = try decode(writer.resultURL)
        #expect(onDisk.status == .complete)
        #expect(onDisk.suites[0].conversations.flatMap(\.turns).count == 8)
        #expect(!FileManager.default.fileExists(atPath: writer.journalURL.path))  // folded into the result
    }

    @Test func aStoppedRunKeepsEveryFinishedTurnAndIsMarkedIncomplete() async throws {
        let runtime = ScriptedRuntime(replies: replies(12))
        let settings = RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0)
        let plan = RunPlan(suites: [try suite(conversations: 4, turns: 3)], settings: settings)
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try ResultWriter(folder: directory, record: record(runtime, settings), suites: [])
        let stop = StopRequest()
        let observer = StopAfterTurns(5, stop: stop)

        let final = try await SuiteRunner(runtime: runtime, plan: plan).run(
            into: record(runtime, settings), writer: writer, stop: stop, observer: observer)

        #expect(final.status == .incomplete)
        let turns = final.suites[0].conversations.flatMap(\.turns)
        #expect(turns.filter { $0.status == .answered }.count == 5)  // every turn finished before the stop
        #expect(turns.filter { $0.status == .skipped }.count == 1)  // the rest of the interrupted conversation
        #expect(final.suites[0].conversations.count == 2)  // later conversations never started
        let onDisk = try decode(writer.resultURL)
        #expect(onDisk.status == .incomplete)
        let answeredOnDisk = onDisk.suites[0].conversations.flatMap(\.turns).filter { $0.status == .answered }
        #expect(answeredOnDisk.count == 5)
    }

    @Test func theJournalHoldsEveryFinishedTurnWhileTheRunGoes() async throws {
        let runtime = ScriptedRuntime(replies: replies(6))
        let settings = RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0)
        let plan = RunPlan(suites: [try suite(conversations: 2, turns: 3)], settings: settings)
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try ResultWriter(folder: directory, record: record(runtime, settings), suites: [])
        let observer = JournalWatcher(journal: writer.journalURL)

        _ = try await SuiteRunner(runtime: runtime, plan: plan).run(
            into: record(runtime, settings), writer: writer, stop: StopRequest(), observer: observer)

        #expect(await observer.linesSeen == [1, 2, 3, 4, 5, 6])  // on disk before the next turn started
    }

    @Test func twoConcurrentRunsInOneFolderDoNotTouchEachOther() async throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = RunSettings(cacheMode: .session, repetitions: 2, warmupConversations: 0)
        let plan = RunPlan(suites: [try suite(conversations: 3, turns: 2)], settings: settings)

        async let first = runInto(directory, plan: plan, settings: settings)
        async let second = runInto(directory, plan: plan, settings: settings)
        let urls = try await [first, second]

        #expect(Set(urls).count == 2)
        for url in urls {
            let record = try decode(url)
            #expect(record.status == .complete)
            #expect(record.suites[0].conversations.flatMap(\.turns).count == 12)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.filter { $0.hasSuffix(".json") }.count == 2)
        #expect(files.filter { $0.hasSuffix(".journal") }.isEmpty)
    }

    private func runInto(_ directory: URL, plan: RunPlan, settings: RunSettings) async throws -> URL {
        let runtime = ScriptedRuntime(replies: replies(12))
        let writer = try ResultWriter(folder: directory, record: record(runtime, settings), suites: [])
        _ = try await SuiteRunner(runtime: runtime, plan: plan).run(into: record(runtime, settings), writer: writer, stop: StopRequest())
        return writer.resultURL
    }
}

/// Requests a stop once `count` turns have finished.
private actor StopAfterTurns: RunObserver {
    private let count: Int
    private let stop: StopRequest
    private var finished = 0

    init(_ count: Int, stop: StopRequest) {
        self.count = count
        self.stop = stop
    }

    func conversationStarted(_ replay: ScheduledReplay, index: Int, of total: Int) {}

    func turnFinished(_ turn: ReplayedTurn, conversation: String) {
        finished += 1
        if finished == count { stop.request() }
    }
}

/// Counts the journal's turn lines (after its header) each time a turn is reported.
private actor JournalWatcher: RunObserver {
    let journal: URL
    private(set) var linesSeen: [Int] = []

    init(journal: URL) { self.journal = journal }

    func conversationStarted(_ replay: ScheduledReplay, index: Int, of total: Int) {}

    func turnFinished(_ turn: ReplayedTurn, conversation: String) {
        let text = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
        linesSeen.append(text.split(separator: "\n").count - 1)
    }
}
