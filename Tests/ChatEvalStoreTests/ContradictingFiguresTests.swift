import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// A run recorded from a server whose figures contradicted each other — more prompt tokens served
/// from its cache than the prompt held — exited 0, and its result file, git note and journal were
/// then refused by every reader (issue 47). A record holding them, written before the figures were
/// clamped, is read as a run records them now: reused tokens clamped to the prompt, the
/// contradiction recorded on the server's figures.
@Suite struct ContradictingFiguresTests {
    /// A served run whose second turn reports 500 reused tokens of an 80-token prompt.
    private func hostileRecord(served: Bool = true) -> RunRecord {
        var runs = SyntheticRuns(seed: 1)
        var record = runs.record(runId: "r", commit: SyntheticRuns.commitID(1), suites: ["s"], conversations: 1, turns: 2)
        record.suites[0].conversations[0].turns[1].metrics?.reusedTokens = 500
        if served {
            record.suites[0].conversations[0].turns[1].metrics?.server = ServerFigures(
                cachedTokens: 500, usageReported: true, contentDeltas: 24)
        }
        return record
    }

    private func expectClamped(_ record: RunRecord) {
        let metrics = record.suites[0].conversations[0].turns[1].metrics
        #expect(metrics?.promptTokens == 80)
        #expect(metrics?.reusedTokens == 80, "clamped to the prompt")
        #expect(metrics?.server?.cachedTokens == 500, "the server's own figure is kept")
        #expect(
            metrics?.server?.contradictions == [
                "the server reported 500 prompt tokens served from its cache, more than the 80 tokens of the prompt: counted as 80 reused"
            ])
        #expect(record.validationProblems.isEmpty)
    }

    @Test func aResultFileHoldingThemIsRead() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("contradicting-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try ResultWriter.makeEncoder(pretty: true).encode(hostileRecord()).write(to: url)
        expectClamped(try ResultFolder.read(url))
    }

    @Test func aGitNoteHoldingThemIsRead() throws {
        let (records, unreadable) = RunNote.records(in: try RunNote.line(for: hostileRecord()))
        #expect(unreadable == [])
        try #require(records.count == 1)
        expectClamped(records[0])
    }

    /// Clamping twice records the contradiction once.
    @Test func clampingIsDoneOnce() {
        var record = hostileRecord()
        record.clampContradictions()
        record.clampContradictions()
        expectClamped(record)
    }

    /// An in-process turn has no server to contradict itself: more reused than sent is a record
    /// that cannot exist, refused as before.
    @Test func anInProcessTurnReusingMoreThanItsPromptIsStillRefused() throws {
        let (records, unreadable) = RunNote.records(in: try RunNote.line(for: hostileRecord(served: false)))
        #expect(records.isEmpty)
        #expect(unreadable.first?.contains("reused_tokens: 500 is more than the 80 prompt tokens") == true, "\(unreadable)")
    }
}
