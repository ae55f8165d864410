import ChatEvalCore

/// A chat engine that answers one turn at a time and may keep session state (a KV cache) between
/// turns, the way a chat app reuses its session.
///
/// Contract:
/// - `respond` streams zero or more `.chunk` events and then exactly one `.info`, then finishes.
///   A turn that cannot be answered finishes the stream by throwing a `RuntimeFailure`
///   (context overflow, server gone, ...); the runtime stays usable for the next turn.
/// - Calls are serial: a caller starts the next turn only after the previous stream finished.
/// - `messages` is the whole history to answer, system prompt first; the runtime decides how
///   much of it it can serve from its session state and reports that as `reusedTokens`.
/// - Cancelling the consuming task ends the turn with `RuntimeFailure.Code.cancelled`.
public protocol ChatRuntime: AnyObject, Sendable {
    /// What runs: engine, model, template, context size. Recorded with every run.
    var identity: RuntimeIdentity { get }

    /// True when generation runs inside this process, so this process's memory is the runtime's.
    var runsInProcess: Bool { get }

    func respond(to messages: [ChatMessage], options: GenerationOptions) -> AsyncThrowingStream<ChatEvent, any Error>

    /// Forgets all session state: the next turn evaluates its whole prompt.
    func resetSession() async

    /// Makes the next turn evaluate its whole prompt, as `--cache-mode cold` asks before every
    /// turn, while the runtime goes on counting what the cache held: that turn's reusable tokens
    /// (at most its prompt), and a miss with cause `coldCache`. The default calls `resetSession()`
    /// (then nothing is counted as reusable).
    func evaluateNextTurnCold() async

    /// Starts a new conversation (named `id` in its suite): forgets the session, as
    /// `resetSession` does, and lets a served runtime give the conversation its own affinity key.
    /// The default calls `resetSession()`.
    func beginConversation(id: String) async

    /// The exact prompt `respond` would send for `messages` (a chat template's rendering, or a
    /// request body), for people checking what a model saw; nil when the runtime cannot say.
    func renderedPrompt(for messages: [ChatMessage]) -> String?

    /// The token ids of the last answered turn's answer (an end-of-generation token included),
    /// for verifying the cache token by token; nil when the runtime does not have them (a server).
    func lastAnswerTokens() async -> [Int32]?

    /// The engine calls that evaluated the last turn's prompt into the cache (`PromptEvaluation`);
    /// nil when the runtime cannot say (a server decides its own batches).
    func lastPromptEvaluation() async -> PromptEvaluation?

    /// As `evaluateNextTurnCold`, and the next turn evaluates its prompt in `evaluation`'s calls,
    /// each with the prompt's tokens at its positions, up to the first call a later trim cut
    /// inside (never evaluated whole and cut again: a cold turn does not trim), then the rest in
    /// the runtime's own batches. The default ignores `evaluation`.
    func evaluateNextTurnCold(following evaluation: PromptEvaluation) async

    /// From now on (until called with false) every prompt is evaluated one token per engine
    /// call, so that no trim can cut inside a call. The default does nothing.
    func evaluateOneTokenPerCall(_ enabled: Bool) async

    /// From now on (until called with false) the runtime keeps the engine calls that put each
    /// cached token in the cache, for `lastPromptEvaluation` and `sessionEvaluation`, which say
    /// nil otherwise: off by default, so that an ordinary run's token loop keeps no such record.
    /// Either way the session is forgotten (a record must start from an empty cache). The
    /// default does nothing.
    func recordEngineCalls(_ enabled: Bool) async

    /// The engine calls whose entries the cache holds after the last turn, its answer included;
    /// nil when the runtime cannot say.
    func sessionEvaluation() async -> PromptEvaluation?

    /// From an empty cache, evaluates `tokens` in `evaluation`'s calls (each with `tokens` at
    /// its positions) and returns, call by call, the token greedy decoding picks after it. The
    /// session is forgotten. Nil when the runtime cannot (a server), or the calls do not follow
    /// on from position 0 within `tokens`, or one was cut inside.
    func greedyPredictions(of tokens: [Int32], in evaluation: PromptEvaluation) async -> [Int32?]?
}

extension ChatRuntime {
    public func beginConversation(id: String) async { await resetSession() }
    public func evaluateNextTurnCold() async { await resetSession() }
    public func renderedPrompt(for messages: [ChatMessage]) -> String? { nil }
    public func lastAnswerTokens() async -> [Int32]? { nil }
    public func lastPromptEvaluation() async -> PromptEvaluation? { nil }
    public func evaluateNextTurnCold(following evaluation: PromptEvaluation) async { await evaluateNextTurnCold() }
    public func sessionEvaluation() async -> PromptEvaluation? { nil }
    public func evaluateOneTokenPerCall(_ enabled: Bool) async {}
    public func recordEngineCalls(_ enabled: Bool) async {}
    public func greedyPredictions(of tokens: [Int32], in evaluation: PromptEvaluation) async -> [Int32?]? { nil }
}
