import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites

/// Grades a recorded run again with the suites as they are now (a check fixed or added after the
/// run): the answers and measurements stay, every verdict and gate is computed anew.
public enum ResultRegrading {
    /// The record re-graded, and what could not be matched (a conversation the suite no longer
    /// has, a suite not given), as sentences. `suites` are matched to the record's by name.
    /// Replays are graded on up to `threads` threads at once; the record is the same on any number.
    public static func regrade(_ record: RunRecord, with suites: [Suite], threads: Int = 1) -> (record: RunRecord, notes: [String]) {
        var regraded = record
        var notes: [String] = []
        var definitions: [Suite] = []
        regraded.suites = []
        for suiteRecord in record.suites {
            guard let suite = suites.first(where: { $0.name == suiteRecord.name }) else {
                notes.append("suite '\(suiteRecord.name)' was left out: no suite of that name was loaded (it was \(suiteRecord.path))")
                continue
            }
            var graded = SuiteRecord(of: suite)
            // By id, the first of an id as `first(where:)` found it: searched for every replay, it was
            // quadratic in the conversations (3,000 × 5 repetitions, 2×10^7 compares).
            let conversations = Dictionary(suite.conversations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var replays: [(SuiteConversation, [ReplayedTurn], ConversationRecord)] = []
            for replay in suiteRecord.conversations {
                guard let conversation = conversations[replay.id] else {
                    notes.append("\(suite.name)/\(replay.id) was left out: the suite no longer has that conversation")
                    continue
                }
                var turns = replay.turns.map(\.replayed)
                for (index, template) in conversation.script.userMessages.enumerated() where index >= turns.count {
                    turns.append(
                        ReplayedTurn(
                            index: index, user: template.source, messagesSent: 0, status: .skipped,
                            skipReason: "the suite has this turn; the recorded run did not"))
                }
                replays.append((conversation, turns, replay))
            }
            graded.conversations = OrderedConcurrentMap.map(replays, threads: threads) { conversation, turns, replay in
                .graded(conversation, turns: turns, repetition: replay.repetition, warmup: replay.warmup)
            }
            regraded.suites.append(graded)
            definitions.append(suite)
        }
        GateEvaluator.evaluate(&regraded, suites: definitions)
        return (regraded, notes)
    }
}
