import ChatEvalCore

/// Replays scripted conversations against a runtime, one turn after another, and measures them.
///
/// Each conversation starts from an empty session (its first turn evaluates everything). A failed turn is recorded as a value and
/// ends its conversation (later turns are recorded as skipped: their history would be missing an
/// answer); the caller moves on to the next conversation.
public struct ConversationReplayer: Sendable {
    public let runtime: any ChatRuntime
    public let cacheMode: CacheMode
    /// Keep each turn's rendered prompt in its result (`ReplayedTurn.prompt`).
    public let keepsPrompts: Bool

    /// The assistant messages the history carries instead of the model's own answers (turn by
    /// turn; a turn past the end keeps its answer): two runtimes replaying the same transcript
    /// are sent the same prompts however their answers differ. Nil: the model's answers.
    public let transcript: [String]?

    /// In cold mode, the engine calls each turn's prompt is evaluated in (turn by turn; a turn
    /// past the end, or nil, in the runtime's own batches): `CacheVerifier` passes the session
    /// replay's, so that both replays share one arithmetic.
    public let coldEvaluations: [PromptEvaluation?]

    public init(
        runtime: any ChatRuntime, cacheMode: CacheMode = .session, keepsPrompts: Bool = false, transcript: [String]? = nil,
        coldEvaluations: [PromptEvaluation?] = []
    ) {
        self.coldEvaluations = coldEvaluations
        self.runtime = runtime
        self.cacheMode = cacheMode
        self.keepsPrompts = keepsPrompts
        self.transcript = transcript
    }

    /// Replays `script`, calling `onTurn` as soon as each turn is finished (to record it
    /// incrementally), and returns every turn's result. After `stop` is requested (or the task
    /// is cancelled) the turn in progress finishes and the remaining turns are reported as skipped.
    public func replay(
        _ script: ConversationScript,
        stop: StopRequest? = nil,
        onTurn: @Sendable (ReplayedTurn) async -> Void = { _ in }
    ) async -> [ReplayedTurn] {
        await runtime.beginConversation(id: script.id)

        var history: [ChatMessage] = []
        var variables = ConversationVariables(variables: script.variables)
        var results: [ReplayedTurn] = []
        var stopReason: String?

        for (index, template) in script.userMessages.enumerated() {
            if stopReason == nil, Task.isCancelled || stop?.isRequested == true { stopReason = "the run was interrupted" }
            if let reason = stopReason {
                let result = ReplayedTurn(index: index, user: template.source, messagesSent: 0, status: .skipped, skipReason: reason)
                results.append(result)
                await onTurn(result)
                continue
            }

            let result: ReplayedTurn
            do {
                let user = try template.render { variables.value(of: $0) }
                let messages = script.messagesToSend(history: history + [.user(user)])
                if cacheMode == .cold {
                    if index < coldEvaluations.count, let evaluation = coldEvaluations[index] {
                        await runtime.evaluateNextTurnCold(following: evaluation)
                    } else {
                        await runtime.evaluateNextTurnCold()
                    }
                }
                var answered = await answer(index: index, user: user, messages: messages, options: script.options)
                if keepsPrompts { answered.prompt = runtime.renderedPrompt(for: messages) }
                result = answered
                if let answer = result.answer {
                    let kept = transcript.flatMap { index < $0.count ? $0[index] : nil } ?? answer
                    history += [.user(user), .assistant(kept)]
                }
                variables.record(result)
            } catch {
                // An unknown name (the loader prevents it) or an expansion past the limit: answers
                // quoted by later turns can grow without bound, so this is checked as they arrive.
                let failure = RuntimeFailure(.templateFailed, "\(script.id) turn \(index + 1): \(error)")
                result = ReplayedTurn(index: index, user: template.source, messagesSent: 0, status: .failed, failure: failure)
            }
            if result.status == .failed {
                stopReason = "turn \(index + 1) failed (\(result.failure?.code.rawValue ?? "unknown"))"
            }
            results.append(result)
            await onTurn(result)
        }
        return results
    }

    private func answer(index: Int, user: String, messages: [ChatMessage], options: GenerationOptions) async -> ReplayedTurn {
        var text = ""
        var metrics: TurnMetrics?
        do {
            for try await event in runtime.respond(to: messages, options: options) {
                switch event {
                case .chunk(let piece): text += piece
                case .info(let info): metrics = info
                }
            }
        } catch {
            let failure = error as? RuntimeFailure ?? RuntimeFailure(.invalidResponse, String(describing: error))
            return ReplayedTurn(index: index, user: user, messagesSent: messages.count, status: .failed, failure: failure)
        }
        guard var metrics else {
            // A cancelled consumer sees the stream end early, without the runtime's own failure.
            let failure =
                Task.isCancelled
                ? RuntimeFailure(.cancelled, "the turn was cancelled after \(text.count) characters of answer")
                : RuntimeFailure(.invalidResponse, "the runtime finished the turn without reporting its measurements")
            return ReplayedTurn(index: index, user: user, messagesSent: messages.count, status: .failed, failure: failure)
        }
        // A runtime without the answer's token ids (a server) has its text digested: the ledger always names the answer.
        if metrics.answerDigest == nil { metrics.answerDigest = AnswerDigest.of(text: text) }
        return ReplayedTurn(index: index, user: user, messagesSent: messages.count, status: .answered, answer: text, metrics: metrics)
    }
}
