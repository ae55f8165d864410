import ChatEvalCore
import ChatEvalRuntime
import ChatEvalSuites

/// `run --verify-cache`: replays every conversation twice with greedy decoding — with the session
/// cache, as a chat app keeps it, and cold, every turn evaluated from an empty cache — and
/// requires token-identical answers (text-identical where the runtime has no token ids: a
/// server). A divergence is a cache fault: the cache changed what the model answered. Each
/// conversation is compared up to its first divergence (later turns send different histories).
public struct CacheVerifier: Sendable {
    public let runtime: any ChatRuntime

    public init(runtime: any ChatRuntime) {
        self.runtime = runtime
    }

    /// Verifies every conversation of `suites`, in order; `onConversation` sees each result as it
    /// is known. Stops early (the rest unverified) once `stop` is requested.
    public func verify(
        _ suites: [Suite], stop: StopRequest? = nil, onConversation: @Sendable (CacheVerification.Conversation) async -> Void = { _ in }
    ) async -> CacheVerification {
        var results: [CacheVerification.Conversation] = []
        for suite in suites {
            for conversation in suite.conversations {
                if stop?.isRequested == true || Task.isCancelled { return CacheVerification(conversations: results, complete: false) }
                var script = conversation.script
                script.options.temperature = 0  // greedy: the one decoding whose answer the cache may not change
                let session = await replay(script, mode: .session, stop: stop)
                let cold = await replay(script, mode: .cold, stop: stop)
                let result = Self.compare(suite: suite.name, conversation: conversation.id, session: session, cold: cold)
                results.append(result)
                await onConversation(result)
            }
        }
        return CacheVerification(conversations: results, complete: true)
    }

    /// One replay's turns with the answer token ids the runtime had for each (nil without them).
    struct Replay {
        var turns: [ReplayedTurn]
        var tokens: [[Int32]?]
    }

    private func replay(_ script: ConversationScript, mode: CacheMode, stop: StopRequest?) async -> Replay {
        let log = TokenLog()
        let runtime = self.runtime
        let turns = await ConversationReplayer(runtime: runtime, cacheMode: mode).replay(script, stop: stop) { turn in
            await log.add(turn.status == .answered ? await runtime.lastAnswerTokens() : nil)
        }
        return Replay(turns: turns, tokens: await log.tokens)
    }

    /// The two replays compared turn by turn, up to the first divergence.
    static func compare(suite: String, conversation: String, session: Replay, cold: Replay) -> CacheVerification.Conversation {
        var result = CacheVerification.Conversation(suite: suite, conversation: conversation, turnsIdentical: 0)
        for (index, (warm, fresh)) in zip(session.turns, cold.turns).enumerated() {
            if warm.status != .answered, fresh.status != .answered, warm.failure?.code == fresh.failure?.code {
                // Failed (or skipped) alike both ways — a context overflow a suite expects: nothing the cache changed.
                result.endedAlike =
                    "turn \(index + 1) \(warm.failure.map { "failed both ways (\($0.code.rawValue))" } ?? "was skipped both ways")"
                return result
            }
            guard warm.status == .answered, fresh.status == .answered, let warmAnswer = warm.answer, let freshAnswer = fresh.answer else {
                let failed = warm.status == .answered ? fresh : warm
                result.unanswered =
                    "turn \(index + 1) was not answered \(warm.status == .answered ? "cold" : "with the session cache"): "
                    + (failed.failure?.message ?? failed.skipReason ?? failed.status.rawValue)
                return result
            }
            let warmTokens = index < session.tokens.count ? session.tokens[index] : nil
            let freshTokens = index < cold.tokens.count ? cold.tokens[index] : nil
            let promptsDiffer = warm.metrics?.promptTokens != fresh.metrics?.promptTokens
            if let divergence = CacheDivergence(
                turn: index + 1, session: (warmAnswer, warmTokens), cold: (freshAnswer, freshTokens),
                prompts: promptsDiffer ? (warm.metrics?.promptTokens, fresh.metrics?.promptTokens) : nil)
            {
                result.divergence = divergence
                return result
            }
            result.turnsIdentical += 1
        }
        return result
    }
}

/// Collects each turn's token ids as the replayer reports them.
private actor TokenLog {
    private(set) var tokens: [[Int32]?] = []
    func add(_ ids: [Int32]?) { tokens.append(ids) }
}
