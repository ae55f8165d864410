import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Turns a journal left by a run that died (SIGKILL, a crash, a full disk, a second Ctrl-C) into
/// the result the run would have written: its header's record, every journaled turn graded with
/// the suites the run used (kept in the header), the suites' gates, and status `incomplete`.
public enum JournalRecovery {
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public static func record(from journal: Journal) throws(Problem) -> RunRecord {
        var suites: [Suite] = []
        for source in journal.header.suites {
            do {
                suites.append(try SuiteLoader.parse(source.text, file: source.path))
            } catch {
                throw Problem(description: "the journal's copy of \(source.path) no longer loads: \(error.description)")
            }
        }
        var record = journal.header.record
        record.suites = SuiteRunner.suiteRecords(RunPlan(suites: suites, settings: record.settings), for: record)

        // Replays in the order their first turn was journaled; a turn journaled twice keeps its last line.
        struct ReplayKey: Hashable {
            var suite: String
            var conversation: String
            var repetition: Int
            var warmup: Bool
            var attempt: Int
        }
        var order: [ReplayKey] = []
        var turns: [ReplayKey: [ReplayedTurn]] = [:]
        for entry in journal.entries {
            let key = ReplayKey(
                suite: entry.suite, conversation: entry.conversation, repetition: entry.repetition, warmup: entry.warmup,
                attempt: entry.attempt ?? 1)
            if turns[key] == nil { order.append(key) }
            turns[key, default: []].removeAll { $0.index == entry.turn.index }
            turns[key, default: []].append(entry.turn)
        }
        // An attempt measured again later was disturbed: kept, marked, left out.
        let lastAttempt = Dictionary(
            order.map {
                (
                    ReplayKey(
                        suite: $0.suite, conversation: $0.conversation, repetition: $0.repetition,
                        warmup: $0.warmup, attempt: 0), $0.attempt
                )
            }, uniquingKeysWith: max)
        // Each suite's conversations by id (the first of an id), built once: searched for every
        // replay of the journal, they were quadratic in the conversations.
        let conversationsById = suites.map { suite in
            Dictionary(suite.conversations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        for key in order {
            guard let suiteIndex = suites.firstIndex(where: { $0.name == key.suite }),
                let conversation = conversationsById[suiteIndex][key.conversation],
                var replayed = turns[key]
            else {
                throw Problem(description: "the journal has turns of \(key.suite)/\(key.conversation), which its suites do not define")
            }
            let turnCount = conversation.script.userMessages.count
            if let stray = replayed.first(where: { $0.index >= turnCount }) {
                throw Problem(
                    description: "the journal has turn index \(stray.index) of \(key.suite)/\(key.conversation), "
                        + "which has \(turnCount) turn(s) (indices 0 to \(turnCount - 1))")
            }
            // Turns the run never reached count as not run, as an interrupted run records them.
            replayed.sort { $0.index < $1.index }
            for (index, template) in conversation.script.userMessages.enumerated() where !replayed.contains(where: { $0.index == index }) {
                replayed.append(
                    ReplayedTurn(
                        index: index, user: template.source, messagesSent: 0, status: .skipped,
                        skipReason: "the run stopped before this turn"))
            }
            replayed.sort { $0.index < $1.index }
            var graded = ConversationRecord.graded(conversation, turns: replayed, repetition: key.repetition, warmup: key.warmup)
            let latest = lastAttempt[
                ReplayKey(suite: key.suite, conversation: key.conversation, repetition: key.repetition, warmup: key.warmup, attempt: 0)]
            if let latest, key.attempt < latest {
                graded.leftOut = "other processes held the cores while this repetition was measured; measured again"
            }
            record.suites[suiteIndex].conversations.append(graded)
        }
        GateEvaluator.evaluate(&record, suites: suites)
        record.status = .incomplete
        record.endedAt = Date()
        return record
    }
}
