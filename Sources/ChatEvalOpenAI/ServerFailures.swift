import ChatEvalCore

/// Server answers and transport errors as typed `RuntimeFailure`s.
enum ServerFailures {
    /// The failure an HTTP error status stands for, from the status and the server's error body.
    static func http(status: Int, reason: String, body: [UInt8], retryAfter: Double?) -> RuntimeFailure {
        let detail = ServerErrorBody.parse(body)
        let said =
            detail?.message.map { ": \(excerpt($0))" }
            ?? (body.isEmpty ? "" : ": \(excerpt(String(decoding: body, as: UTF8.self)))")
        if let detail, let overflow = contextOverflow(detail) { return overflow }
        if let detail, let failure = foundationModels(detail) { return failure }
        let wait = retryAfter.map { " (Retry-After \(format($0)) s)" } ?? ""
        switch status {
        case 429: return RuntimeFailure(.rateLimited, "the server is rate limiting (HTTP 429\(wait))\(said)")
        case 502, 503, 504:
            return RuntimeFailure(.unavailable, "the server cannot take the request now (HTTP \(status) \(reason)\(wait))\(said)")
        case 401, 403: return RuntimeFailure(.unauthorized, "the server refused the credentials (HTTP \(status) \(reason))\(said)")
        case 408: return RuntimeFailure(.timeout, "the server timed the request out (HTTP 408)\(said)")
        default: return RuntimeFailure(.httpError, "the server rejected the request (HTTP \(status) \(reason))\(said)")
        }
    }

    /// An error the server reported inside the stream, after the answer had begun.
    static func inStream(_ detail: ServerErrorBody.Detail) -> RuntimeFailure {
        if let overflow = contextOverflow(detail) { return overflow }
        if let failure = foundationModels(detail) { return failure }
        let code = detail.code.map { " \($0)" } ?? ""
        return RuntimeFailure(
            .httpError, "the server reported an error mid-stream\(code): \(excerpt(detail.message ?? detail.type ?? "no message"))")
    }

    /// A context-window error in any of the servers' shapes: llama-server's
    /// `exceed_context_size_error` (with `n_prompt_tokens`, `n_ctx`), OpenAI's
    /// `context_length_exceeded`, vLLM's "maximum context length" sentence.
    static func contextOverflow(_ detail: ServerErrorBody.Detail) -> RuntimeFailure? {
        let message = detail.message ?? ""
        let lowered = message.lowercased()
        let matches =
            detail.type == "exceed_context_size_error" || detail.code == "context_length_exceeded"
            || FoundationModelsError(detail) == .exceededContextWindowSize
            || lowered.contains("maximum context length") || lowered.contains("exceeds the available context size")
            || lowered.contains("context length exceeded") || lowered.contains("context window")
        guard matches else { return nil }
        if let prompt = detail.nPromptTokens, let context = detail.nCtx {
            return RuntimeFailure(.contextOverflow, "the prompt has \(prompt) tokens and the server's context holds \(context)")
        }
        return RuntimeFailure(.contextOverflow, "the server's context window is too small: \(excerpt(message))")
    }

    /// An error in Foundation Models' taxonomy (`LanguageModelSession.GenerationError`), as a
    /// server bridging Apple's on-device model reports it, as the failure ChatEval records:
    /// a guardrail violation and an unsupported language as their own codes, a refusal as
    /// `refused`, rate limiting and a session already answering (`concurrentRequests`) as
    /// `rate_limited` and missing model assets as `unavailable` (both retried), an undecodable
    /// generation as `invalid_response`. The context window is `contextOverflow`'s. Nil for any
    /// other error.
    static func foundationModels(_ detail: ServerErrorBody.Detail) -> RuntimeFailure? {
        guard let error = FoundationModelsError(detail) else { return nil }
        let said = detail.message.map { ": \(excerpt($0))" } ?? ""
        let name = "Foundation Models' \(error.rawValue)"
        switch error {
        case .exceededContextWindowSize: return nil
        case .guardrailViolation:
            return RuntimeFailure(.guardrailViolation, "a safety guardrail stopped the turn (\(name))\(said)")
        case .refusal: return RuntimeFailure(.refused, "the model refused (\(name))\(said)")
        case .rateLimited: return RuntimeFailure(.rateLimited, "the on-device model is rate limiting (\(name))\(said)")
        case .concurrentRequests:
            return RuntimeFailure(.rateLimited, "the session was already answering another request (\(name))\(said)")
        case .assetsUnavailable:
            return RuntimeFailure(.unavailable, "the on-device model's assets are not available (\(name))\(said)")
        case .unsupportedLanguageOrLocale:
            return RuntimeFailure(.unsupportedLanguage, "the model does not take the prompt's language or locale (\(name))\(said)")
        case .decodingFailure: return RuntimeFailure(.invalidResponse, "the generation could not be decoded (\(name))\(said)")
        }
    }

    /// Server text on one line, at most `limit` characters: redacted whole before it is cut, so a
    /// secret the cut would straddle is never kept in part (`Secrets`).
    static func excerpt(_ text: String, limit: Int = 300) -> String {
        let flat = Secrets.redact(text).split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > limit ? String(flat.prefix(limit - 1)) + "…" : flat
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.2f", seconds)
    }
}
