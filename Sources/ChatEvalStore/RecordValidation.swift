import ChatEvalCore
import Foundation

/// What a result read from a file, a note or a journal must satisfy before anything trusts it:
/// a schema version this build reads, measurements that can exist (no negative time or count,
/// nothing infinite, no more tokens reused than were sent), and every index or count that later
/// code indexes, sizes or loops by in its range (turn indices within their conversation, shards,
/// groups, the decided look). A record that decodes is not yet a record that can be compared:
/// `time_to_first_token: -1` would show as −1000 ms, a turn index of 2^40 would allocate 8 TB.
extension RunRecord {
    /// Every problem (up to about 20), as "field: what is wrong" with the field's path in the
    /// file; empty when valid.
    public var validationProblems: [String] {
        if schemaVersion != Self.currentSchemaVersion {
            return [
                "schema_version: \(schemaVersion) is not a version this ChatEval reads (it reads \(Self.currentSchemaVersion)); "
                    + "read it with the ChatEval that wrote it"
            ]
        }
        var problems = settingsProblems + placementProblems
        for (s, suite) in suites.enumerated() {
            for (c, conversation) in suite.conversations.enumerated() {
                problems += conversation.validationProblems.map { "suites[\(s)].conversations[\(c)].\($0)" }
                if problems.count >= 20 { return problems }
            }
        }
        return problems
    }

    private var settingsProblems: [String] {
        var problems: [String] = []
        if settings.repetitions < 0 { problems.append("settings.repetitions: \(settings.repetitions) is negative") }
        if settings.warmupConversations < 0 {
            problems.append("settings.warmup_conversations: \(settings.warmupConversations) is negative")
        }
        return problems
    }

    /// Problems of what places the run among others: its commit's abbreviation (a file name is
    /// built from it), its shard, its group and the look a paired run decided at.
    private var placementProblems: [String] {
        var problems: [String] = []
        if let short = git?.shortCommit, !(4...64).contains(short.utf8.count) || !short.utf8.allSatisfy(Self.isLowercaseHexDigit) {
            problems.append("git.short_commit: '\(short.prefix(80))' is not an abbreviated commit id (4 to 64 of 0-9 and a-f)")
        }
        if let shard, !(1...RunShard.maximumCount).contains(shard.count) || !(1...shard.count).contains(shard.index) {
            problems.append("shard: \(shard.index)/\(shard.count) is not a shard I/N with 1 ≤ I ≤ N ≤ \(RunShard.maximumCount)")
        }
        if let group, group.count < 1 || !(1...group.count).contains(group.index) {
            problems.append("group: index \(group.index) of \(group.count) is not a place in a group (1 ≤ index ≤ count)")
        }
        if let look = decidedLook {
            if look.look < 1 || look.look > look.looks.count {
                problems.append("decided_look.look: \(look.look) is not one of its \(look.looks.count) looks")
            }
            if look.looks.contains(where: { $0 < 1 }) { problems.append("decided_look.looks: holds a count below 1") }
            if !(0...1).contains(look.share) || !(0...1).contains(look.intervalShare) {
                problems.append("decided_look: a share outside 0 to 1")
            }
            for (index, earlier) in (look.confirmed ?? []).enumerated() {
                if earlier.look < 1 || earlier.look > look.looks.count || earlier.repetitions < 1
                    || !(0...1).contains(earlier.share) || !(0...1).contains(earlier.intervalShare)
                {
                    problems.append(
                        "decided_look.confirmed[\(index)]: look \(earlier.look) at \(earlier.repetitions) repetitions is not one of its "
                            + "\(look.looks.count) looks, or a share lies outside 0 to 1")
                }
            }
        }
        return problems
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }
}

extension ConversationRecord {
    /// Problems of one replay, each "field: what is wrong" with the field's path inside the replay.
    var validationProblems: [String] {
        var problems: [String] = []
        if repetition < 0 { problems.append("repetition: \(repetition) is negative") }
        let turnCount = min(turns.count, ReplayedTurn.indexLimit)
        for (t, turn) in turns.enumerated() {
            if !(0..<turnCount).contains(turn.index) {
                problems.append("turns[\(t)].index: \(turn.index) is not a turn of this conversation (0 to \(turnCount - 1))")
            }
            if let metrics = turn.metrics { problems += metrics.validationProblems.map { "turns[\(t)].metrics.\($0)" } }
        }
        return problems
    }
}

extension JournalEntry {
    /// Problems of one journaled turn, each "field: what is wrong": as a record's, but a turn
    /// journaled alone is placed in its conversation only by `recover`.
    public var validationProblems: [String] {
        var problems: [String] = []
        if repetition < 0 { problems.append("repetition: \(repetition) is negative") }
        if let attempt, attempt < 1 { problems.append("attempt: \(attempt) is below 1") }
        if !(0..<ReplayedTurn.indexLimit).contains(turn.index) {
            problems.append("turn.index: \(turn.index) is not a turn index (0 to \(ReplayedTurn.indexLimit - 1))")
        }
        if let metrics = turn.metrics { problems += metrics.validationProblems.map { "turn.metrics.\($0)" } }
        return problems
    }
}

extension TurnMetrics {
    /// Problems of one turn's measurements, each "field: what is wrong".
    var validationProblems: [String] {
        var problems: [String] = []
        func time(_ name: String, _ value: Double?) {
            guard let value else { return }
            if !value.isFinite || value < 0 { problems.append("\(name): \(value) is not a time (0 or more seconds)") }
        }
        func count(_ name: String, _ value: Int?) {
            guard let value else { return }
            if value < 0 { problems.append("\(name): \(value) is negative") }
        }
        time("time_to_first_token", timeToFirstToken)
        time("prefill_time", prefillTime)
        time("decode_time", decodeTime)
        time("total_time", totalTime)
        if interTokenLatencies.contains(where: { !$0.isFinite || $0 < 0 }) {
            problems.append("inter_token_latencies: holds a negative or infinite gap")
        }
        count("prompt_tokens", promptTokens)
        count("reused_tokens", reusedTokens)
        count("generated_tokens", generatedTokens)
        count("peak_resident_bytes", peakResidentBytes)
        if let reused = reusedTokens, reused > promptTokens, promptTokens >= 0 {
            problems.append("reused_tokens: \(reused) is more than the \(promptTokens) prompt tokens")
        }
        return problems
    }
}
