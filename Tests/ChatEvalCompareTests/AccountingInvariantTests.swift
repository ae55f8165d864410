import ChatEvalCore
import ChatEvalStore
import Testing

@testable import ChatEvalCompare

/// Turn n's prompt extends turn n−1's prompt and answer, token for token: every later turn of a
/// session-mode replay checked, a break named with its token and cause, a history window's
/// breaks told apart as declared.
@Suite struct AccountingInvariantTests {
    /// One 4-turn replay whose turns sent 2, 4, 6, 8 messages (or `sent`), with `misses` by turn index.
    private func record(sent: [Int] = [2, 4, 6, 8], misses: [Int: ReuseMiss] = [:]) -> RunRecord {
        var builder = RecordBuilder()
        builder.replay(repetition: 1, ttft: [0.1, 0.1, 0.1, 0.1], reusable: 50)
        var record = builder.record
        for index in 0..<4 {
            record.suites[0].conversations[0].turns[index].replayed.messagesSent = sent[index]
            record.suites[0].conversations[0].turns[index].replayed.metrics?.reuseMiss = misses[index]
        }
        return record
    }

    private let rerendered = ReuseMiss(cause: .earlierTurnsRerendered, position: 20, before: "system", cached: "first", sent: "third")

    @Test func everyLaterTurnThatExtendsThePreviousOneHolds() {
        let invariant = AccountingInvariant([record()])
        #expect(invariant.checked == 3 && invariant.breaks.isEmpty)
    }

    @Test func aBreakIsNamedWithItsTokenAndCauseUnlessTheSuiteDeclaredIt() throws {
        // Turn 3 re-sends earlier turns differently though it sent every message: unexpected.
        let unexpected = AccountingInvariant([record(misses: [2: rerendered])])
        let found = try #require(unexpected.undeclared.first)
        #expect(unexpected.checked == 3 && unexpected.breaks.count == 1)
        #expect(found.turn == 3 && found.miss.position == 20 && !found.declared)
        // A history window: turn 3 sent 4 messages where turn 2 sent 4 (fewer than 4 + 2): declared.
        let window = AccountingInvariant([record(sent: [2, 4, 4, 4], misses: [2: rerendered, 3: rerendered])])
        #expect(window.breaks.count == 2 && window.undeclared.isEmpty)
    }

    /// Cold mode drops the cache on purpose; a server's reply does not carry its tokens: not checked.
    @Test func whatCannotBeCheckedIsNotCounted() {
        var cold = record(misses: [1: ReuseMiss(cause: .coldCache, position: 0, before: "", cached: "", sent: "")])
        cold.settings.cacheMode = .cold
        #expect(AccountingInvariant([cold]).checked == 0)
        var served = record(misses: [1: ReuseMiss(cause: .serverSide, position: 0, before: "", cached: "", sent: "")])
        served.runtime.endpoint = "http://127.0.0.1:8080/v1"
        #expect(AccountingInvariant([served]).checked == 0)
    }
}
