import ChatEvalCore
import Foundation

/// One streamed answer being received: its text, when each piece arrived, and the server's
/// closing figures; at the end, the turn's `TurnMetrics`.
///
/// Times are seconds since the request was sent, taken when the bytes carrying an event arrived
/// (before parsing them), so parsing costs no measured time. TTFT is the arrival of the first
/// piece of answer text (`delta.content`); the inter-token latencies are the gaps between pieces
/// of text, as vLLM's benchmark measures them (a server may send several tokens in one piece).
/// Decode time runs from the first piece to the finish chunk (which arrives once the last token,
/// an end-of-generation token included, was sampled).
struct StreamedTurn {
    private(set) var text = ""
    private(set) var deltaTimes: [Double] = []
    private(set) var finishReason: String?
    private var finishTime: Double?
    private var usage: ChatCompletionChunk.Usage?
    private var timings: ChatCompletionChunk.Timings?
    private var refusal = ""
    private(set) var done = false
    /// Events read, and those of them that carried nothing.
    private(set) var events = 0
    private(set) var emptyEvents = 0

    /// What one event adds: a piece of text to pass on; something else (a role, usage or
    /// timings, a finish reason, a refusal, `[DONE]`, a field not read); or nothing (an empty
    /// delta), which is not progress for the stall bound (`AttemptBounds`).
    enum Progress {
        case text(String)
        case other
        case nothing

        var carriedSomething: Bool { if case .nothing = self { false } else { true } }
    }

    /// Reads one event (`data:` of a chunk, or `[DONE]`). Throws the turn's failure when the
    /// chunk is not JSON, or carries a server error.
    mutating func consume(_ event: ServerSentEvent, at time: Double) throws(RuntimeFailure) -> Progress {
        events += 1
        let progress = try read(event, at: time)
        if !progress.carriedSomething { emptyEvents += 1 }
        return progress
    }

    private mutating func read(_ event: ServerSentEvent, at time: Double) throws(RuntimeFailure) -> Progress {
        // Trimmed only when it needs it: a copy of a large event costs its size again.
        let data =
            event.data.first?.isWhitespace == true || event.data.last?.isWhitespace == true
            ? event.data.trimmingCharacters(in: .whitespaces) : event.data
        if data == "[DONE]" {
            done = true
            return .other
        }
        if event.type == "error" {
            throw ServerErrorBody.parse(Array(data.utf8)).map(ServerFailures.inStream)
                ?? RuntimeFailure(.httpError, "the server sent an error event: \(ServerFailures.excerpt(data))")
        }
        let chunk: ChatCompletionChunk
        do {
            chunk = try ChatCompletionChunk.decoder.decode(ChatCompletionChunk.self, from: Data(data.utf8))
        } catch {
            throw RuntimeFailure(
                .malformedStream,
                "chunk \(deltaTimes.count + 1) of the stream is not a chat completion chunk: \(ServerFailures.excerpt(data, limit: 120))")
        }
        if let error = chunk.error { throw ServerFailures.inStream(error) }
        if let usage = chunk.usage { self.usage = usage }
        if let timings = chunk.timings { self.timings = timings }
        var piece = ""
        var carried = chunk.usage != nil || chunk.timings != nil
        for choice in chunk.choices ?? [] {
            if let content = choice.delta?.content { piece += content }
            if let refusal = choice.delta?.refusal { self.refusal += refusal }
            carried = carried || choice.delta?.holdsMore == true || choice.delta?.refusal?.isEmpty == false || choice.finishReason != nil
            if let reason = choice.finishReason, finishReason == nil {
                finishReason = reason
                finishTime = time
            }
        }
        guard !piece.isEmpty else { return carried ? .other : .nothing }
        text += piece
        deltaTimes.append(time)
        return .text(piece)
    }

    /// True once the server said the answer is complete.
    var isFinished: Bool { done || finishReason != nil }

    /// The turn's metrics, or its failure: a refusal the API marked, a stream that ended before
    /// the answer was complete.
    /// `cut`: ChatEval stopped reading at its answer bound (the server ignored `max_tokens`):
    /// the answer counts as finished at `max_tokens`. `stoppedAtString`: ChatEval found a stop
    /// string in the text (and stopped reading if the server had not finished): the answer is
    /// complete there, its token count the pieces read when no `usage` came.
    func metrics(totalTime: Double, options: GenerationOptions, stoppedAtString: Bool, backend: String?, cut: Bool = false)
        throws(RuntimeFailure) -> TurnMetrics
    {
        if !refusal.isEmpty {
            throw RuntimeFailure(.refused, "the model refused: \(ServerFailures.excerpt(refusal, limit: 200))")
        }
        if finishReason == "content_filter" {
            throw RuntimeFailure(.refused, "the server's content filter stopped the answer after \(text.count) characters")
        }
        guard isFinished || cut || stoppedAtString else {
            throw RuntimeFailure(
                .streamInterrupted,
                "the stream ended after \(deltaTimes.count) pieces (\(text.count) characters) without finishing the answer")
        }
        var figures = ServerFigures(
            promptEvaluatedTokens: timings?.promptN, cachedTokens: timings?.cacheN ?? usage?.promptTokensDetails?.cachedTokens,
            prefillTime: timings?.promptMs.map { $0 / 1000 }, prefillTokensPerSecond: timings?.promptPerSecond,
            generatedTokens: timings?.predictedN, decodeTime: timings?.predictedMs.map { $0 / 1000 },
            decodeTokensPerSecond: timings?.predictedPerSecond, backend: backend,
            usageReported: usage?.completionTokens != nil, contentDeltas: deltaTimes.count)
        if cut { figures.cutAtMaxTokens = true }
        let promptTokens = usage?.promptTokens ?? timings.flatMap { t in t.promptN.map { $0 + (t.cacheN ?? 0) } } ?? 0
        let generated = cut ? deltaTimes.count : usage?.completionTokens ?? timings?.predictedN ?? deltaTimes.count
        let firstToken = deltaTimes.first ?? finishTime ?? totalTime
        let lastToken = max(finishTime ?? deltaTimes.last ?? firstToken, deltaTimes.last ?? firstToken)
        let stopReason: StopReason
        if stoppedAtString {
            stopReason = .stopString
        } else if cut {
            stopReason = .maxTokens
        } else {
            // "stop" stands for an end-of-generation token and for a stop string alike (the server
            // cuts the string itself): both are recorded as eog.
            stopReason = finishReason == "length" || generated >= options.maxTokens ? .maxTokens : .endOfGeneration
        }
        var metrics = TurnMetrics(
            promptTokens: promptTokens, reusedTokens: figures.cachedTokens,
            generatedTokens: generated, timeToFirstToken: firstToken, prefillTime: figures.prefillTime,
            decodeTime: max(lastToken - firstToken, 0), totalTime: totalTime,
            interTokenLatencies: zip(deltaTimes.dropFirst(), deltaTimes).map { $0 - $1 },
            stopReason: stopReason, server: figures)
        // A server that says it reused more than the prompt holds: clamped, the contradiction recorded.
        metrics.clampContradictions()
        return metrics
    }
}
