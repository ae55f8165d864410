import ChatEvalCore
import Foundation

/// How to reach an OpenAI-compatible server and what to send it. Holds the *name* of the
/// environment variable with the API key, never the key: a configuration can be printed, logged
/// and recorded.
public struct OpenAIConfiguration: Sendable, Hashable {
    /// The base URL as OpenAI clients take it, e.g. `http://127.0.0.1:8080/v1`; requests go to
    /// `<base>/chat/completions`. A URL without a path gets `/v1`.
    public var baseURL: String
    /// The `model` field of every request (llama-server ignores it; vLLM, Ollama and hosted APIs
    /// route by it). Empty: the one model the server lists (an error when it lists several).
    public var modelName: String
    /// Name of the environment variable holding the API key, sent as `Authorization: Bearer`;
    /// nil sends none.
    public var apiKeyVariable: String?
    /// Longest a turn may take, from sending the request to the last byte of the answer, in seconds.
    public var requestTimeout: Double
    /// Longest to wait for a connection, in seconds.
    public var connectTimeout: Double
    /// Longest a turn may go without progress, in seconds: the response's head, a keep-alive
    /// comment, an event that carries something (a piece of the answer, a role, usage, the finish
    /// reason, `[DONE]`); an empty delta is not progress (`AttemptBounds` states the rule). A server
    /// that trickles its headers, goes quiet or sends only empty deltas is stopped here, not at the
    /// request timeout; one that sends comments while it works is not.
    public var stallTimeout: Double
    /// Fields added to every request body (they win over ChatEval's own, except the ones that
    /// make the request a streamed chat: `messages`, `stream`, `stream_options`).
    public var extraFields: [String: JSONValue]
    /// Keeps a conversation's turns on one backend behind a load balancer.
    public var affinity: Affinity
    /// Response header naming the backend that served a turn (e.g. `X-Backend`), recorded per turn.
    public var backendHeader: String?
    public var retry: RetryPolicy
    /// Whether to send llama-server's `cache_prompt: false` on a turn that must not reuse the
    /// server's cache (the first turn of a conversation, every turn in cold mode); nil: when the
    /// server identifies itself as llama-server.
    public var cacheControl: Bool?

    /// How a conversation's affinity key is sent: a request header, the `user` field, or both.
    public struct Affinity: Sendable, Hashable {
        public var header: String?
        public var userField: Bool

        public init(header: String? = nil, userField: Bool = false) {
            self.header = header
            self.userField = userField
        }

        public var isEnabled: Bool { header != nil || userField }
    }

    public static let defaultRequestTimeout = 600.0
    public static let defaultConnectTimeout = 10.0
    /// A server still working sends a head at once and events as tokens come (or keep-alive
    /// comments while it has none); a minute with neither is a stall (a long prefill on a slow
    /// server without comments can raise it: `--stall-timeout`).
    public static let defaultStallTimeout = 60.0
    /// Request fields ChatEval must set itself.
    public static let reservedFields: Set<String> = ["messages", "stream", "stream_options"]

    public init(
        baseURL: String, modelName: String, apiKeyVariable: String? = nil,
        requestTimeout: Double = OpenAIConfiguration.defaultRequestTimeout,
        connectTimeout: Double = OpenAIConfiguration.defaultConnectTimeout,
        stallTimeout: Double = OpenAIConfiguration.defaultStallTimeout, extraFields: [String: JSONValue] = [:],
        affinity: Affinity = Affinity(), backendHeader: String? = nil,
        retry: RetryPolicy = RetryPolicy(), cacheControl: Bool? = nil
    ) {
        self.baseURL = baseURL
        self.modelName = modelName
        self.apiKeyVariable = apiKeyVariable
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.extraFields = extraFields
        self.affinity = affinity
        self.backendHeader = backendHeader
        self.retry = retry
        self.cacheControl = cacheControl
    }

    /// Problems that make this configuration unusable, as sentences naming the setting; empty when valid.
    public var problems: [String] {
        var found: [String] = []
        if Endpoint(baseURL) == nil {
            found.append(
                "the base URL must be an http:// or https:// URL with a host, "
                    + "like http://127.0.0.1:8080/v1 (got \"\(Endpoint.redacted(baseURL))\")"
            )
        }
        if let apiKeyVariable, apiKeyVariable.isEmpty || apiKeyVariable.contains("=") {
            found.append("the API key variable must be the name of an environment variable (got \"\(apiKeyVariable)\")")
        }
        if !(requestTimeout > 0 && requestTimeout.isFinite) {
            found.append("the request timeout must be more than 0 seconds (got \(requestTimeout))")
        }
        if !(connectTimeout > 0 && connectTimeout.isFinite) {
            found.append("the connect timeout must be more than 0 seconds (got \(connectTimeout))")
        }
        if !(stallTimeout > 0 && stallTimeout.isFinite) {
            found.append("the stall timeout must be more than 0 seconds (got \(stallTimeout))")
        }
        let reserved = extraFields.keys.filter(Self.reservedFields.contains).sorted()
        if !reserved.isEmpty {
            found.append("extra request fields cannot set \(reserved.joined(separator: ", ")): ChatEval streams the chat itself")
        }
        for name in [affinity.header, backendHeader].compactMap({ $0 }) where !Self.isHeaderName(name) {
            found.append("\"\(name)\" is not an HTTP header name (letters, digits and -)")
        }
        return found + retry.problems
    }

    private static func isHeaderName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_".unicodeScalars.contains($0))
            }
    }
}
