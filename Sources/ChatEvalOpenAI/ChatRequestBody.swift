import ChatEvalCore
import Foundation

/// The JSON body of a streamed chat request.
///
/// Sent: `model`, the whole history (`messages`), `stream: true` with
/// `stream_options.include_usage` (token counts in the last chunk), `max_tokens`, `temperature`,
/// `top_p`, `seed` (not to `mlx_lm.server` when sampling is greedy: a seed changes nothing there,
/// and a request with one is served alone instead of batched with the others), `stop` when there
/// are stop strings (not to `mlx_lm.server`, which matches them token by token and, when the
/// tokens differ, deletes the string from the text and generates on: ChatEval finds them itself
/// and ends the answer there, `AttemptReading`), and `top_k` only when set (OpenAI's own
/// API rejects it; llama-server, vLLM and Ollama take it). For llama-server: `cache_prompt: false`
/// on a turn that must evaluate its whole prompt, and `ignore_eos` when asked. Then the user's
/// extra fields, which win.
enum ChatRequestBody {
    struct Turn {
        var model: String
        var messages: [ChatMessage]
        var options: GenerationOptions
        /// The turn must not reuse the server's cache (`cache_prompt: false`, llama-server only).
        var disableCache: Bool
        var llamaServerFields: Bool
        /// `seed` is sent even when sampling is greedy (temperature 0).
        var seedWhenGreedy = true
        /// Stop strings are sent for the server to apply.
        var sendsStop = true
        /// The `user` field (a conversation's affinity key), if it is sent.
        var user: String?
        var extraFields: [String: JSONValue]
    }

    static func fields(_ turn: Turn) -> [String: JSONValue] {
        let options = turn.options
        var body: [String: JSONValue] = [
            "model": .string(turn.model),
            "messages": .array(turn.messages.map { .object(["role": .string($0.role.rawValue), "content": .string($0.content)]) }),
            "stream": .bool(true),
            "stream_options": .object(["include_usage": .bool(true)]),
            "max_tokens": .integer(options.maxTokens),
            "temperature": .number(options.temperature),
            "top_p": .number(options.topP),
        ]
        if options.temperature > 0 || turn.seedWhenGreedy { body["seed"] = .integer(Int(options.seed)) }
        if !options.stop.isEmpty, turn.sendsStop { body["stop"] = .array(options.stop.map(JSONValue.string)) }
        if options.topK > 0 { body["top_k"] = .integer(options.topK) }
        if turn.llamaServerFields {
            if turn.disableCache { body["cache_prompt"] = .bool(false) }
            if options.ignoreEndOfGeneration { body["ignore_eos"] = .bool(true) }
        }
        if let user = turn.user { body["user"] = .string(user) }
        for (name, value) in turn.extraFields where !OpenAIConfiguration.reservedFields.contains(name) {
            body[name] = value
        }
        return body
    }

    /// The body as JSON; fails only on a number JSON cannot hold (an infinite extra field).
    static func encode(_ turn: Turn) throws(RuntimeFailure) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(fields(turn))
        } catch {
            throw RuntimeFailure(.templateFailed, "the request could not be written as JSON: \(error)")
        }
    }
}
