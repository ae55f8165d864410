import ChatEvalCore

/// `run --verify-cache` in words: a line per conversation as it is verified, then the verdict.
public enum CacheVerificationReport {
    /// "✓ memory/pet-name: 3 turns identical" or "✗ memory/pet-name turn 2: …".
    public static func lines(_ conversation: CacheVerification.Conversation) -> [String] {
        let name = Terminal.safe("\(conversation.suite)/\(conversation.conversation)")
        if let divergence = conversation.divergence {
            return [Format.wrap("✗ " + place(conversation, divergence), width: 100, hanging: "    ")]
        }
        if let unanswered = conversation.unanswered {
            return [
                Format.wrap(
                    "? \(name): \(Format.count(conversation.turnsIdentical, "turn")) identical, then \(Terminal.safe(unanswered))",
                    width: 100, hanging: "    ")
            ]
        }
        return [
            "✓ \(name): \(Format.count(conversation.turnsIdentical, "turn")) identical with the session cache and cold"
                + (conversation.endedAlike.map { ", then \(Terminal.safe($0))" } ?? "") + cost(conversation)
        ]
    }

    /// " (session 1.21 s; cold in 1 pass over the session's engine calls, 0.84 s)", or "cold turn by turn".
    static func cost(_ conversation: CacheVerification.Conversation) -> String {
        guard let session = conversation.sessionSeconds, let cold = conversation.coldSeconds else { return "" }
        let how =
            conversation.coldPasses.map { "in \($0 == 1 ? "1 pass" : "\($0) passes") over the session's engine calls" }
            ?? (conversation.oneTokenPerCall ? "turn by turn, both sides one token per call (a trim cut inside a call)" : "turn by turn")
        return " (session \(Format.duration(session)); cold \(how), \(Format.duration(cold)))"
    }

    /// "memory/pet-name turn 2: the session cache's answer differs from cold at token 14 (id 2 vs 28): «…» session «…» cold «…»".
    public static func place(_ conversation: CacheVerification.Conversation, _ divergence: CacheDivergence) -> String {
        var text = Terminal.safe("\(conversation.suite)/\(conversation.conversation)") + " turn \(divergence.turn): "
        if let prompts = divergence.promptTokens {
            text +=
                "the prompt has \(prompts.session.map(String.init) ?? "?") tokens with the session cache and "
                + "\(prompts.cold.map(String.init) ?? "?") cold; "
        }
        text += "the session cache's answer differs from cold"
        if let token = divergence.token {
            let ids = [divergence.sessionTokenID, divergence.coldTokenID].map { $0.map(String.init) ?? "none (answer ended)" }
            text += " at token \(token) (id \(ids[0]) with the session cache, \(ids[1]) cold)"
        }
        if let difference = divergence.text {
            text +=
                ", character \(difference.offset): «…\(Terminal.safe(difference.before))» session «\(Terminal.safe(difference.first))» "
                + "cold «\(Terminal.safe(difference.second))»"
        }
        return text
    }

    /// The verdict: how many conversations and turns were identical, and the faults.
    public static func summary(_ result: CacheVerification) -> String {
        let turns = result.conversations.reduce(0) { $0 + $1.turnsIdentical }
        let faults = result.faults.count
        if faults == 0, result.passed {
            return "✓ PASS cache verified: \(Format.count(result.conversations.count, "conversation")), "
                + "\(Format.count(turns, "turn")) identical with the session cache and cold"
        }
        var parts: [String] = []
        if faults > 0 { parts.append("\(faults) of \(Format.count(result.conversations.count, "conversation")) diverged: a cache fault") }
        let unanswered = result.conversations.filter { $0.unanswered != nil }.count
        if unanswered > 0 { parts.append("\(unanswered) could not be compared to the end (a turn failed)") }
        if !result.complete { parts.append("stopped before every conversation was verified") }
        return "✗ FAIL " + parts.joined(separator: "; ")
    }
}
