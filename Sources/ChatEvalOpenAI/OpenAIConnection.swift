import ChatEvalCore
import ChatEvalDigest
import Foundation

/// A connection to one OpenAI-compatible server: a pool of libcurl handles (and so of keep-alive
/// connections), the API key, and what the server said about itself. Runtimes made from it share
/// the pool; one runtime per conversation in flight (`makeRuntime()`), as many as needed.
///
/// `shutdown()` closes the pool's idle connections once every runtime is done.
/// The API key is read once from the environment variable the configuration names and is kept
/// here only, to be sent in the `Authorization` header: it is in no identity, record, message or
/// description.
public final class OpenAIConnection: Sendable {
    public let configuration: OpenAIConfiguration
    public let endpoint: Endpoint
    /// What the server said about itself when the connection was opened.
    public let server: ServerInfo
    let pool: CurlHandlePool
    private let apiKey: String?

    /// Opens a connection and asks the server what it is (llama-server's `/props`, else
    /// `/v1/models`). Throws when the configuration is unusable, the API key variable is not set,
    /// or the server cannot be reached at all.
    public static func open(
        _ configuration: OpenAIConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(OpenAIConnectionError) -> OpenAIConnection {
        if let problem = configuration.problems.first { throw OpenAIConnectionError(.invalidConfiguration, problem) }
        guard let endpoint = Endpoint(configuration.baseURL) else {
            throw OpenAIConnectionError(.invalidConfiguration, "the base URL \(Endpoint.redacted(configuration.baseURL)) is not usable")
        }
        var apiKey: String?
        if let variable = configuration.apiKeyVariable {
            guard let value = environment[variable], !value.isEmpty else {
                throw OpenAIConnectionError(.missingAPIKey, "the API key variable \(variable) is not set (or empty) in the environment")
            }
            apiKey = value
            // From here on, the key's value is redacted from everything written or printed.
            Secrets.register(value)
        }
        // A credential sent as a request field (`--request-field api_key=…`) likewise, at any
        // depth of its value (`--request-field 'auth={"api_key": "…"}'`).
        for (name, value) in configuration.extraFields {
            Secrets.credentials(in: value, named: Secrets.isSecretName(name)).forEach(Secrets.register)
        }
        // The base URL's password, which libcurl sends as `Authorization: Basic base64(user:password)`:
        // the password, and the pair the header encodes (its base64 forms come with it).
        if let components = URLComponents(string: configuration.baseURL), let password = components.password, !password.isEmpty {
            for form in [password, components.percentEncodedPassword ?? password] {
                Secrets.register(form)
                Secrets.register((components.percentEncodedUser ?? "") + ":" + form)
                Secrets.register((components.user ?? "") + ":" + form)
            }
        }
        // A turn is bounded by its request timeout and stall bound (OpenAIChatRuntime), the probe
        // below by its own deadline.
        let pool = CurlHandlePool()
        // The one-off probe gets at least 10 s whatever the turns' timeout: a server (or a loaded
        // machine) slow to answer /props once must not fail the whole run before its first turn.
        let probe = ServerProbe(
            pool: pool, endpoint: endpoint, apiKey: apiKey, timeout: min(max(configuration.requestTimeout, 10), 30),
            connectTimeout: configuration.connectTimeout)
        let server: ServerInfo
        var configuration = configuration
        do throws(OpenAIConnectionError) {
            server = try await probe.identify(modelName: configuration.modelName, retry: configuration.retry)
            if configuration.modelName.isEmpty, server.isMLXLMServer, server.models.isEmpty {
                // mlx_lm.server's name for the model it was started with (`--model`), which its
                // /v1/models may fail to list.
                configuration.modelName = "default_model"
            } else if configuration.modelName.isEmpty {
                guard server.models.count == 1, let only = server.models.first else {
                    let listed =
                        server.models.isEmpty ? "lists none at /v1/models" : "lists \(server.models.prefix(10).joined(separator: ", "))"
                    throw OpenAIConnectionError(.invalidConfiguration, "name the model to request (--model-name): the server \(listed)")
                }
                configuration.modelName = only
            }
        } catch {
            pool.close()
            throw error
        }
        return OpenAIConnection(configuration: configuration, endpoint: endpoint, server: server, pool: pool, apiKey: apiKey)
    }

    private init(configuration: OpenAIConfiguration, endpoint: Endpoint, server: ServerInfo, pool: CurlHandlePool, apiKey: String?) {
        self.configuration = configuration
        self.endpoint = endpoint
        self.server = server
        self.pool = pool
        self.apiKey = apiKey
    }

    /// Loads libcurl, which every exchange with a server needs (it is loaded on first use, not at
    /// start-up), or throws `libraryUnavailable` naming why it cannot be: for a command that would
    /// otherwise retry a connection until its timeout, or build servers before the first request.
    public static func checkTransport() throws(OpenAIConnectionError) {
        do {
            try CurlHandle.loadLibrary()
        } catch {
            throw OpenAIConnectionError(.libraryUnavailable, error.message)
        }
    }

    /// Waits until the server at `baseURL` answers: llama-server's and vLLM's `/health` with 200
    /// (503 while a model loads), else `/v1/models` with 200. Throws `unreachable` after `timeout`
    /// seconds, naming what it last saw.
    public static func waitUntilReady(baseURL: String, timeout: Double) async throws(OpenAIConnectionError) {
        guard let endpoint = Endpoint(baseURL) else {
            throw OpenAIConnectionError(.invalidConfiguration, "the base URL \(Endpoint.redacted(baseURL)) is not usable")
        }
        try checkTransport()
        let pool = CurlHandlePool()
        defer { pool.close() }
        let clock = ContinuousClock.now
        var last = "no answer yet"
        while ContinuousClock.now - clock < .seconds(timeout) {
            for url in [endpoint.health, endpoint.models] {
                do {
                    let response = try await HTTPClient.fetch(
                        HTTPRequest(url: url, connectTimeout: 2), pool: pool, timeout: 2, maximumBytes: 1 << 20)
                    if response.status == 200 { return }
                    last = "\(Endpoint.redacted(url)) answered \(response.status)"
                    if response.status != 404 { break }
                } catch {
                    last = "\(Endpoint.redacted(url)): \(error.message)"
                    break
                }
            }
            do { try await Task.sleep(for: .milliseconds(200)) } catch { break }
        }
        throw OpenAIConnectionError(
            .unreachable, "the server at \(endpoint.recorded) was not ready within \(ServerFailures.format(timeout)) s (\(last))")
    }

    /// A runtime for one conversation at a time over this connection.
    public func makeRuntime() -> OpenAIChatRuntime { OpenAIChatRuntime(connection: self) }

    /// A runtime for one of `streams` conversations in flight at once: each holds its share of the
    /// memory they share (`StreamMemory`).
    public func makeRuntime(streams: Int) -> OpenAIChatRuntime {
        OpenAIChatRuntime(connection: self, memory: StreamMemory(streams: streams))
    }

    /// Closes the pool's idle connections (a later turn opens a new one).
    public func shutdown() async {
        pool.close()
    }

    /// The identity recorded with a run over this connection.
    public var identity: RuntimeIdentity {
        RuntimeIdentity(
            engine: server.engine, build: server.build ?? "unknown",
            model: ModelIdentity(
                path: configuration.modelName, fileBytes: server.modelBytes ?? 0,
                description: server.modelDescription, parameters: server.parameters),
            chatTemplate: "server", chatTemplateSource: "server", chatTemplateHash: server.chatTemplateHash,
            contextSize: server.contextSize ?? 0, batchSize: 0, threads: 0, inProcess: false, endpoint: endpoint.recorded)
    }

    /// Whether turns that must not reuse the server's cache send `cache_prompt: false`
    /// (llama-server, or as the configuration says); other servers decide their caching alone.
    public var sendsCacheControl: Bool { configuration.cacheControl ?? server.isLlamaServer }

    /// Headers every request carries: JSON, and the API key when there is one.
    func headers() -> [(name: String, value: String)] {
        var headers = [(name: "Content-Type", value: "application/json"), (name: "Accept", value: "text/event-stream")]
        if let apiKey { headers.append((name: "Authorization", value: "Bearer \(apiKey)")) }
        return headers
    }
}
