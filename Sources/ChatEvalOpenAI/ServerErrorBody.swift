import ChatEvalCore
import Foundation

/// An error body as OpenAI-compatible servers send it, in their several shapes:
/// - OpenAI: `{"error": {"message", "type", "param", "code": "context_length_exceeded"}}`
/// - llama-server: `{"error": {"code": 400, "message", "type": "exceed_context_size_error", "n_prompt_tokens", "n_ctx"}}`
/// - vLLM: `{"error": {"message": "This model's maximum context length is …", "type": "BadRequestError", "code": 400}}`,
///   older versions `{"object": "error", "message", "type", "code"}`
/// - Ollama: `{"error": {"message", "type"}}` on /v1, `{"error": "text"}` on its own API
struct ServerErrorBody: Decodable {
    struct Detail: Decodable {
        var message: String?
        var type: String?
        /// A number (llama-server, vLLM) or a string (OpenAI): kept as text.
        var code: String?
        var nPromptTokens: Int?
        var nCtx: Int?

        private enum CodingKeys: String, CodingKey { case message, type, code, nPromptTokens, nCtx }

        init(message: String?, type: String? = nil, code: String? = nil) {
            self.message = message
            self.type = type
            self.code = code
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try? container.decodeIfPresent(String.self, forKey: .message)
            type = try? container.decodeIfPresent(String.self, forKey: .type)
            if let text = try? container.decodeIfPresent(String.self, forKey: .code) {
                code = text
            } else if let number = try? container.decodeIfPresent(Int.self, forKey: .code) {
                code = String(number)
            }
            nPromptTokens = try? container.decodeIfPresent(Int.self, forKey: .nPromptTokens)
            nCtx = try? container.decodeIfPresent(Int.self, forKey: .nCtx)
        }
    }

    var detail: Detail?

    private enum CodingKeys: String, CodingKey { case error, message, type, code }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let nested = try? container.decodeIfPresent(Detail.self, forKey: .error) {
            detail = nested
        } else if let text = try? container.decodeIfPresent(String.self, forKey: .error) {
            detail = Detail(message: text)
        } else if container.contains(.message) {
            detail = try Detail(from: decoder)
        }
    }

    /// The error in `body`, or nil when the body is not one of the shapes above.
    static func parse(_ body: [UInt8]) -> Detail? {
        (try? ChatCompletionChunk.decoder.decode(ServerErrorBody.self, from: Data(body)))?.detail
    }
}
