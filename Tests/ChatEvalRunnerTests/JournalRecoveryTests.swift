import ChatEvalCore
import ChatEvalRunner
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Testing

/// `recover` rebuilds a dead run from its journal: a journal is append-only, so the same turn may
/// appear twice (a retried write) and a repetition may appear once per attempt (measured again
/// because the machine was busy). Neither may count twice.
@Suite struct JournalRecoveryTests {
    private let suiteText = "name: s\nconversations:\n  - id: c\n    turns: [one, two]\n"

    private func journal(_ entries: [JournalEntry]) -> Journal {
        let settings = RunSettings(cacheMode: .session, repetitions: 2, warmupConversations: 0)
        let record = RunRecord(
            runId: ResultWriter.newRunId(), startedAt: Date(), command: ["test"], git: nil,
            machine: MachineInfo.current(), runtime: ScriptedRuntime(replies: []).identity,
            modelSha256: nil, settings: settings)
        return Journal(
            header: JournalHeader(record: record, suites: [SuiteSource(path: "s.yaml", text: suiteText)]),
            entries: entries, unreadableLines: [])
    }

    private func entry(repetition: Int, turn: Int, prompt: Int, attempt: Int? = nil) -> JournalEntry {
        JournalEntry(
            suite: "s", conversation: "c", repetition: repetition, warmup: false,
            turn: ReplayedTurn(
                index: turn, user: turn == 0 ? "one" : "two", messagesSent: 2 * turn + 1, status: .answered,
                answer: "a", metrics: ScriptedRuntime.metrics(prompt: prompt)),
            attempt: attempt)
    }

    @Test func aTurnJournaledTwiceCountsOnceWithItsLastLine() throws {
        let recovered = try JournalRecovery.record(
            from: journal([
                entry(repetition: 1, turn: 0, prompt: 10),
                entry(repetition: 1, turn: 0, prompt: 11),  // the same line written again
                entry(repetition: 1, turn: 1, prompt: 20),
            ]))
        let replays = recovered.suites[0].conversations
        #expect(replays.count == 1)
        #expect(replays[0].turns.map(\.index) == [0, 1])
        #expect(replays[0].turns[0].metrics?.promptTokens == 11)
        #expect(recovered.status == .incomplete)
    }

    @Test func anAttemptMeasuredAgainIsKeptButLeftOut() throws {
        let recovered = try JournalRecovery.record(
            from: journal([
                entry(repetition: 1, turn: 0, prompt: 10),
                entry(repetition: 1, turn: 1, prompt: 20),
                entry(repetition: 1, turn: 0, prompt: 12, attempt: 2),
                entry(repetition: 1, turn: 1, prompt: 22, attempt: 2),
                entry(repetition: 2, turn: 0, prompt: 14),  // the run died during its second turn
            ]))
        let replays = recovered.suites[0].conversations
        #expect(replays.count == 3)
        #expect(replays.map(\.repetition) == [1, 1, 2])
        #expect(replays[0].leftOut != nil)  // the disturbed first attempt
        #expect(replays[1].leftOut == nil && replays[1].turns[0].metrics?.promptTokens == 12)
        #expect(replays[2].leftOut == nil)
        #expect(replays[2].turns.map(\.status) == [.answered, .skipped])
        #expect(replays.filter(\.isMeasured).count == 2)
    }

    @Test func turnsOfAConversationTheSuitesDoNotDefineAreRefused() {
        var stray = entry(repetition: 1, turn: 0, prompt: 10)
        stray.conversation = "gone"
        #expect(throws: JournalRecovery.Problem.self) { try JournalRecovery.record(from: journal([stray])) }
    }
}
