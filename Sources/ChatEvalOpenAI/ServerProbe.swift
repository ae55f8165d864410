import ChatEvalCore
import ChatEvalDigest
import Foundation

/// Asks a server what it is: llama-server's `/props` (build, context, slots, chat template) and
/// the OpenAI `/v1/models` list (llama-server adds `meta`: parameters, size, n_ctx; vLLM
/// `max_model_len` and `owned_by: vllm`; Ollama `owned_by: library`). Either may be missing.
/// `mlx_lm.server` says nothing of itself: it is told apart by serving no `/props`, listing models
/// without `owned_by` (or none), and answering from Python's `http.server` (`Server: BaseHTTP/…`).
struct ServerProbe {
    let pool: CurlHandlePool
    let endpoint: Endpoint
    let apiKey: String?
    let timeout: Double
    let connectTimeout: Double

    private struct Props: Decodable {
        struct Settings: Decodable { var nCtx: Int? }
        var buildInfo: String?
        var totalSlots: Int?
        var modelPath: String?
        var chatTemplate: String?
        var defaultGenerationSettings: Settings?
    }

    private struct Models: Decodable {
        struct Model: Decodable {
            struct Meta: Decodable {
                var nCtx: Int?
                var nParams: Int?
                var size: Int?
                var ftype: String?
            }
            var id: String
            var ownedBy: String?
            var maxModelLen: Int?
            var meta: Meta?
        }
        var data: [Model]?
    }

    /// `identify(modelName:)`, tried again per `retry` while the server is unreachable or still
    /// loading its model (llama-server answers 503 meanwhile).
    func identify(modelName: String, retry: RetryPolicy) async throws(OpenAIConnectionError) -> ServerInfo {
        var attempt = 1
        while true {
            do {
                return try await identify(modelName: modelName)
            } catch {
                guard error.code == .unreachable,
                    let delay = retry.delay(
                        beforeRetry: attempt, after: .unavailable, retryAfter: nil, uniform: { Double.random(in: 0..<1) }),
                    (try? await Task.sleep(for: .seconds(delay))) != nil
                else { throw error }
                attempt += 1
            }
        }
    }

    func identify(modelName: String) async throws(OpenAIConnectionError) -> ServerInfo {
        let (props, propsServer): (Props?, String?) = try await fetch(endpoint.props)
        let (models, modelsServer): (Models?, String?) = try await fetch(endpoint.models)
        let listed = models?.data ?? []
        let model = listed.first { $0.id == modelName } ?? (listed.count == 1 ? listed.first : nil)
        let isLlamaServer = props?.buildInfo != nil || model?.ownedBy == "llamacpp"
        // (Its /v1/models answers 200 with an empty body when the model hub's cache folder does
        // not exist: a local model, served offline, is listed nowhere.)
        let isMLXLMServer =
            !isLlamaServer && props == nil && listed.allSatisfy { $0.ownedBy == nil }
            && [propsServer, modelsServer].contains { $0?.hasPrefix("BaseHTTP/") == true }
        let engine: String
        switch (isLlamaServer, model?.ownedBy) {
        case (true, _): engine = "llama-server"
        case (_, "vllm"): engine = "vLLM"
        case (_, "library"), (_, "ollama"): engine = "Ollama"
        default: engine = isMLXLMServer ? "mlx_lm.server" : "openai-compatible"
        }
        let description = [model?.id ?? modelName, model?.meta?.ftype].compactMap { $0 }.joined(separator: ", ")
        return ServerInfo(
            engine: engine, build: props?.buildInfo, isLlamaServer: isLlamaServer, isMLXLMServer: isMLXLMServer,
            contextSize: props?.defaultGenerationSettings?.nCtx ?? model?.meta?.nCtx ?? model?.maxModelLen,
            slots: props?.totalSlots, modelBytes: model?.meta?.size, parameters: model?.meta?.nParams,
            modelDescription: "served by \(engine): \(description)",
            chatTemplateHash: props?.chatTemplate.map { SHA256Digest.hex($0) },
            models: listed.map(\.id))
    }

    /// GETs `url` and decodes it, with the response's `Server` header; nil when the server has no
    /// such endpoint or answers something else. Throws only when the server cannot be reached or
    /// refuses the key.
    private func fetch<T: Decodable>(_ url: String) async throws(OpenAIConnectionError) -> (value: T?, server: String?) {
        let headers = apiKey.map { [(name: "Authorization", value: "Bearer \($0)")] } ?? []
        try OpenAIConnection.checkTransport()
        let response: (status: Int, headers: HTTPHeaders, body: Data)
        do {
            response = try await HTTPClient.fetch(
                HTTPRequest(url: url, headers: headers, connectTimeout: connectTimeout), pool: pool,
                timeout: timeout, maximumBytes: 8 << 20)
        } catch {
            throw OpenAIConnectionError(.unreachable, "cannot reach \(Endpoint.redacted(url)): \(error.message)")
        }
        if response.status == 401 || response.status == 403 {
            throw OpenAIConnectionError(
                .unauthorized,
                "\(Endpoint.redacted(url)) answered \(response.status) \(HTTPStatus.reason(response.status)): "
                    + "the server does not accept the API key"
            )
        }
        if response.status == 503 {
            // llama-server answers 503 to everything while its model loads: what it is cannot be told yet.
            throw OpenAIConnectionError(
                .unreachable, "\(Endpoint.redacted(url)) answered 503: the server is not ready (a model still loading?)")
        }
        let server = response.headers.first("Server")
        guard response.status == 200 else { return (nil, server) }
        return (try? ChatCompletionChunk.decoder.decode(T.self, from: response.body), server)
    }

}
