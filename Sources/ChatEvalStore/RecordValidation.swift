import ChatEvalCore
import Foundation

/// What a result read from a file, a note or a journal must satisfy before anything trusts it:
/// a schema version this build reads, and measurements that can exist (no negative time or count,
/// nothing infinite, no more tokens reused than were sent). A record that decodes is not yet a
/// record that can be compared: `time_to_first_token: -1` would show as −1000 ms in a comparison.
extension RunRecord {
    /// Every problem, as "field: what is wrong" with the field's path in the file; empty when valid.
    public var validationProblems: [String] {
        var problems: [String] = []
        if schemaVersion != Self.currentSchemaVersion {
            problems.append(
                "schema_version: \(schemaVersion) is not a version this ChatEval reads (it reads \(Self.currentSchemaVersion)); "
                    + "read it with the ChatEval that wrote it")
            return problems
        }
        if settings.repetitions < 0 { problems.append("settings.repetitions: \(settings.repetitions) is negative") }
        if settings.warmupConversations < 0 {
            problems.append("settings.warmup_conversations: \(settings.warmupConversations) is negative")
        }
        for (s, suite) in suites.enumerated() {
            for (c, conversation) in suite.conversations.enumerated() {
                if conversation.repetition < 0 {
                    problems.append("suites[\(s)].conversations[\(c)].repetition: \(conversation.repetition) is negative")
                }
                for (t, turn) in conversation.turns.enumerated() {
                    guard let metrics = turn.metrics else { continue }
                    let place = "suites[\(s)].conversations[\(c)].turns[\(t)].metrics"
                    problems += metrics.validationProblems.map { "\(place).\($0)" }
                }
                if problems.count >= 20 { return problems }
            }
        }
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
