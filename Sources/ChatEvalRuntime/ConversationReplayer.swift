import ChatEvalCore

/// How session state is used across the turns of a conversation.
public enum CacheMode: String, Codable, Sendable, CaseIterable {
    /// Keep the session between turns, as a chat app does: each turn evaluates only new tokens.
    case session
    /// Forget the session before every turn: each turn evaluates its whole history again.
    case cold
}

/// The outcome of one turn of a replayed conversation.
public struct TurnResult: Codable, Sendable, Hashable {
    public enum Status: String, Codable, Sendable {
        case answered
        /// The runtime could not answer (see `failure`).
        case failed
        /// Not run, because an earlier turn failed or the run was interrupted (see `skipReason`).
        case skipped
    }

    /// 0-based position in the conversation.
    public var index: Int
    /// The user message as sent, placeholders filled in.
    public var user: String
    /// Messages sent for this turn, system prompt included.
    public var messagesSent: Int
    public var status: Status
    public var answer: String?
    public var metrics: TurnMetrics?
    public var failure: RuntimeFailure?
    public var skipReason: String?
    /// Verdicts of the turn's checks (set when the turn is graded).
    public var checks: [Verdict]?
    /// Weighted pass rate of `checks`.
    public var score: Double?

    public init(
        index: Int, user: String, messagesSent: Int, status: Status, answer: String? = nil,
        metrics: TurnMetrics? = nil, failure: RuntimeFailure? = nil, skipReason: String? = nil,
        checks: [Verdict]? = nil, score: Double? = nil
    ) {
        self.index = index
        self.user = user
        self.messagesSent = messagesSent
        self.status = status
        self.answer = answer
        self.metrics = metrics
        self.failure = failure
        self.skipReason = skipReason
        self.checks = checks
        self.score = score
    }
}

/// Replays scripted conversations against a runtime, one turn after another, and measures them.
///
/// Each conversation starts from an empty session (its first turn evaluates everything) and, for an
/// in-process runtime, with its own peak-memory window. A failed turn is recorded as a value and
/// ends its conversation (later turns are recorded as skipped: their history would be missing an
/// answer); the caller moves on to the next conversation.
public struct ConversationReplayer: Sendable {
    public let runtime: any ChatRuntime
    public let cacheMode: CacheMode

    public init(runtime: any ChatRuntime, cacheMode: CacheMode = .session) {
        self.runtime = runtime
        self.cacheMode = cacheMode
    }

    /// Replays `script`, calling `onTurn` as soon as each turn is finished (to record it
    /// incrementally), and returns every turn's result. After `stop` is requested (or the task
    /// is cancelled) the turn in progress finishes and the remaining turns are reported as skipped.
    public func replay(
        _ script: ConversationScript,
        stop: StopRequest? = nil,
        onTurn: @Sendable (TurnResult) async -> Void = { _ in }
    ) async -> [TurnResult] {
        await runtime.resetSession()
        if runtime.runsInProcess { ProcessMemory.resetPeak() }

        var history: [ChatMessage] = []
        var variables = ConversationVariables(variables: script.variables)
        var results: [TurnResult] = []
        var stopReason: String?

        for (index, template) in script.userMessages.enumerated() {
            if stopReason == nil, Task.isCancelled || stop?.isRequested == true { stopReason = "the run was interrupted" }
            if let reason = stopReason {
                let result = TurnResult(index: index, user: template.source, messagesSent: 0, status: .skipped, skipReason: reason)
                results.append(result)
                await onTurn(result)
                continue
            }

            let result: TurnResult
            do {
                let user = try template.render { variables.value(of: $0) }
                let messages = script.messagesToSend(history: history + [.user(user)])
                if cacheMode == .cold { await runtime.resetSession() }
                result = await answer(index: index, user: user, messages: messages, options: script.options)
                if let answer = result.answer {
                    history += [.user(user), .assistant(answer)]
                    variables.record(user: user, answer: answer)
                }
            } catch {
                let failure = RuntimeFailure(.templateFailed, "turn \(index + 1): \(error)")
                result = TurnResult(index: index, user: template.source, messagesSent: 0, status: .failed, failure: failure)
            }
            if result.status == .failed {
                stopReason = "turn \(index + 1) failed (\(result.failure?.code.rawValue ?? "unknown"))"
            }
            results.append(result)
            await onTurn(result)
        }
        return results
    }

    private func answer(index: Int, user: String, messages: [ChatMessage], options: GenerationOptions) async -> TurnResult {
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
            return TurnResult(index: index, user: user, messagesSent: messages.count, status: .failed, failure: failure)
        }
        guard var metrics else {
            let failure = RuntimeFailure(.invalidResponse, "the runtime finished the turn without reporting its measurements")
            return TurnResult(index: index, user: user, messagesSent: messages.count, status: .failed, failure: failure)
        }
        if runtime.runsInProcess, let peak = ProcessMemory.peakResidentBytes() {
            metrics.peakResidentBytes = peak
        }
        return TurnResult(index: index, user: user, messagesSent: messages.count, status: .answered, answer: text, metrics: metrics)
    }
}
