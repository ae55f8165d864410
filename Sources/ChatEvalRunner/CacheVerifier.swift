import ChatEvalCore
import ChatEvalRuntime
import ChatEvalSuites

/// `run --verify-cache`: replays every conversation twice with greedy decoding — with the session
/// cache, as a chat app keeps it, and cold, every turn evaluated from an empty cache — and
/// requires token-identical answers (text-identical where the runtime has no token ids: a
/// server). A divergence is a cache fault: the cache changed what the model answered. Each
/// conversation is compared up to its first divergence (later turns send different histories).
///
/// The cold replay evaluates each turn's prompt in the engine calls the session replay's cache
/// held it in (`PromptEvaluation`), where the runtime can say which: the two replays then share
/// one arithmetic at the engine's own batch size, so a near-tie cannot flip with no cache at
/// fault — as it could when a batch of 81 tokens is summed against one of 19 — and neither
/// replay needs one token per call. Where a trim cut inside a call (a history window), no cold
/// evaluation could make that call alike without trimming too, and the cold side must never
/// trim: that conversation is replayed again one token per call both ways.
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
        // The runtime keeps its engine calls for this only: an ordinary run's token loop does not.
        await runtime.recordEngineCalls(true)
        let verification = await verifyEach(suites, stop: stop, onConversation: onConversation)
        await runtime.recordEngineCalls(false)
        return verification
    }

    private func verifyEach(
        _ suites: [Suite], stop: StopRequest?, onConversation: @Sendable (CacheVerification.Conversation) async -> Void
    ) async -> CacheVerification {
        var results: [CacheVerification.Conversation] = []
        for suite in suites {
            for conversation in suite.conversations {
                if stop?.isRequested == true || Task.isCancelled { return CacheVerification(conversations: results, complete: false) }
                var script = conversation.script
                script.options.temperature = 0  // greedy: the one decoding whose answer the cache may not change
                var clock = Stopwatch()
                var session = await replay(script, mode: .session, stop: stop)
                var sessionSeconds = clock.elapsed
                var result: CacheVerification.Conversation
                if session.cutsACall {
                    // A trim cut inside an engine call: replayed again one token per call both ways,
                    // so that every cut falls between calls and the cold side never trims.
                    await runtime.evaluateOneTokenPerCall(true)
                    clock = Stopwatch()
                    session = await replay(script, mode: .session, stop: stop)
                    sessionSeconds = clock.elapsed
                    let cold = await replay(script, mode: .cold, following: session.evaluations, stop: stop)
                    await runtime.evaluateOneTokenPerCall(false)
                    result = Self.compare(suite: suite.name, conversation: conversation.id, session: session, cold: cold)
                    result.oneTokenPerCall = true
                } else if let passed = await verifyInPasses(session, suite: suite.name, conversation: conversation.id) {
                    result = passed
                } else {
                    let cold = await replay(script, mode: .cold, following: session.evaluations, stop: stop)
                    result = Self.compare(suite: suite.name, conversation: conversation.id, session: session, cold: cold)
                }
                result.sessionSeconds = sessionSeconds
                result.coldSeconds = clock.elapsed - sessionSeconds
                results.append(result)
                await onConversation(result)
            }
        }
        return CacheVerification(conversations: results, complete: true)
    }

    /// One replay's turns with the answer token ids the runtime had for each, the calls each
    /// turn's prompt was evaluated in, and the calls the cache held after each turn (nil where
    /// the runtime does not say).
    struct Replay {
        var turns: [ReplayedTurn]
        var tokens: [[Int32]?]
        var evaluations: [PromptEvaluation?] = []
        var held: [PromptEvaluation?] = []

        /// Whether a trim cut inside one of the engine calls the session's cache held.
        var cutsACall: Bool { (evaluations + held).contains { $0?.cutsACall == true } }
    }

    /// The session replay checked against cold evaluations of its prompts in as few passes as
    /// its cache allows: while each turn's cache went on into the next turn's prompt unchanged,
    /// one evaluation from an empty cache, in the session's own calls, of the last such turn's
    /// prompt and answer holds every earlier prompt of the run as a prefix, and the greedy token
    /// after each call is what a cold turn would have answered token by token. So a cold replay
    /// costs about what the session did, not a whole prompt again per turn. Returns nil — and a
    /// turn-by-turn cold replay decides, and says what cold answered — when a turn was not
    /// answered, the runtime cannot say how it evaluated, or a greedy token differs anywhere.
    private func verifyInPasses(_ session: Replay, suite: String, conversation: String) async -> CacheVerification.Conversation? {
        let count = session.turns.count
        guard count > 0, session.turns.allSatisfy({ $0.status == .answered }),
            session.tokens.count == count, session.evaluations.count == count, session.held.count == count
        else { return nil }
        var prompts: [PromptEvaluation] = [], held: [PromptEvaluation] = [], answers: [[Int32]] = []
        for turn in 0..<count {
            guard let prompt = session.evaluations[turn], let after = session.held[turn], let answer = session.tokens[turn], !answer.isEmpty
            else { return nil }
            prompts.append(prompt)
            held.append(after)
            answers.append(answer)
        }
        var first = 0, passes = 0
        for last in 0..<count where last == count - 1 || !held[last].isPrefix(of: prompts[last + 1]) {
            let pass = held[last]
            guard let predictions = await runtime.greedyPredictions(of: pass.heldTokens, in: pass) else { return nil }
            var next: [Int: Int32] = [:]  // the greedy token at each position a call's logits predict
            for (call, prediction) in zip(pass.calls, predictions) {
                if let prediction { next[call.end] = prediction }
            }
            for turn in first...last {
                let start = prompts[turn].heldCount  // the answer's first position
                for (offset, token) in answers[turn].enumerated() where next[start + offset] != token { return nil }
            }
            first = last + 1
            passes += 1
        }
        var result = CacheVerification.Conversation(suite: suite, conversation: conversation, turnsIdentical: count)
        result.coldPasses = passes
        return result
    }

    private func replay(
        _ script: ConversationScript, mode: CacheMode, following evaluations: [PromptEvaluation?] = [], stop: StopRequest?
    ) async -> Replay {
        let log = TokenLog()
        let runtime = self.runtime
        let replayer = ConversationReplayer(runtime: runtime, cacheMode: mode, coldEvaluations: evaluations)
        let turns = await replayer.replay(script, stop: stop) { turn in
            let answered = turn.status == .answered
            await log.add(
                answered ? await runtime.lastAnswerTokens() : nil, answered ? await runtime.lastPromptEvaluation() : nil,
                answered && mode == .session ? await runtime.sessionEvaluation() : nil)
        }
        return Replay(turns: turns, tokens: await log.tokens, evaluations: await log.evaluations, held: await log.held)
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

/// Collects each turn's token ids and prompt evaluation as the replayer reports them.
private actor TokenLog {
    private(set) var tokens: [[Int32]?] = []
    private(set) var evaluations: [PromptEvaluation?] = []
    private(set) var held: [PromptEvaluation?] = []
    func add(_ ids: [Int32]?, _ evaluation: PromptEvaluation?, _ after: PromptEvaluation?) {
        tokens.append(ids)
        evaluations.append(evaluation)
        held.append(after)
    }
}
