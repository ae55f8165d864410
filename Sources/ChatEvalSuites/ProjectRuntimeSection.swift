import ChatEvalCore
internal import Yams

/// Which runtime answers: llama.cpp in this process, or an OpenAI-compatible server.
public enum RuntimeKind: String, Sendable, Hashable, CaseIterable {
    case llama
    case openai
}

extension ProjectFile {
    /// The project file's `runtime:` section — a served runtime instead of the in-process model:
    ///
    /// ```yaml
    /// runtime:
    ///   kind: openai                        # llama (default) or openai
    ///   base_url: http://127.0.0.1:8080/v1
    ///   model_name: smollm2                 # the request's model field; a list runs several side by side
    ///   api_key_env: OPENAI_API_KEY         # the NAME of the variable holding the key
    ///   request_timeout: 600                # seconds, request to last byte
    ///   stall_timeout: 60                   # seconds without progress (head, comment, non-empty event)
    ///   connect_timeout: 10
    ///   retries: 3                          # for 429, 503 and lost connections
    ///   extra_fields: {repeat_penalty: 1.1} # added to every request body
    ///   affinity: {header: X-Session-Id, user_field: true}
    ///   backend_header: X-Backend           # response header naming the backend, recorded per turn
    /// ```
    public struct ServedRuntime: Sendable, Hashable {
        public var kind: RuntimeKind?
        public var baseURL: String?
        /// The served models by the name requests carry (several: side by side).
        public var modelNames: [String]?
        public var apiKeyVariable: String?
        public var requestTimeout: Double?
        public var connectTimeout: Double?
        public var stallTimeout: Double?
        public var retries: Int?
        public var extraFields: [String: JSONValue]?
        public var affinityHeader: String?
        public var affinityUserField: Bool?
        public var backendHeader: String?

        public init() {}

        static let keys = [
            "kind", "base_url", "model_name", "api_key_env", "request_timeout", "connect_timeout", "stall_timeout", "retries",
            "extra_fields", "affinity", "backend_header",
        ]
    }

    static func servedRuntime(_ node: Node, _ reader: YAMLReader) -> ServedRuntime? {
        guard let entries = reader.mapping(node, "runtime", allowed: ServedRuntime.keys) else { return nil }
        var runtime = ServedRuntime()
        if let node = entries["kind"], let name = reader.string(node, "runtime.kind") {
            runtime.kind = RuntimeKind(rawValue: name)
            if runtime.kind == nil {
                reader.fail(.invalidValue, at: node, "unknown runtime.kind '\(name.prefix(40))'", hint: "llama or openai")
            }
        }
        runtime.baseURL = entries["base_url"].flatMap { reader.string($0, "runtime.base_url") }
        if let node = entries["model_name"], let names = reader.strings(node, "runtime.model_name") {
            if names.isEmpty || names.contains(where: \.isEmpty) {
                reader.fail(.invalidValue, at: node, "runtime.model_name needs a name (or a list of names) of the server's models")
            } else if Set(names).count < names.count {
                reader.fail(.invalidValue, at: node, "runtime.model_name lists a model twice")
            } else {
                runtime.modelNames = names
            }
        }
        runtime.apiKeyVariable = entries["api_key_env"].flatMap { reader.string($0, "runtime.api_key_env") }
        runtime.requestTimeout = entries["request_timeout"].flatMap { positive($0, "runtime.request_timeout", reader) }
        runtime.connectTimeout = entries["connect_timeout"].flatMap { positive($0, "runtime.connect_timeout", reader) }
        runtime.stallTimeout = entries["stall_timeout"].flatMap { positive($0, "runtime.stall_timeout", reader) }
        runtime.retries = entries["retries"].flatMap { reader.integer($0, "runtime.retries", minimum: 0, maximum: 100) }
        runtime.backendHeader = entries["backend_header"].flatMap { reader.string($0, "runtime.backend_header") }
        if let node = entries["affinity"], let affinity = reader.mapping(node, "runtime.affinity", allowed: ["header", "user_field"]) {
            runtime.affinityHeader = affinity["header"].flatMap { reader.string($0, "runtime.affinity.header") }
            runtime.affinityUserField = affinity["user_field"].flatMap { reader.boolean($0, "runtime.affinity.user_field") }
        }
        if let node = entries["extra_fields"] {
            if case .mapping(let mapping) = node {
                var fields: [String: JSONValue] = [:]
                for (key, value) in mapping {
                    guard let name = reader.string(key, "a field name in runtime.extra_fields") else { continue }
                    fields[name] = json(value, "runtime.extra_fields.\(name)", reader)
                }
                runtime.extraFields = fields
            } else {
                reader.fail(
                    .wrongType, at: node,
                    "runtime.extra_fields must be a mapping of request fields to values, found \(reader.kind(of: node))")
            }
        }
        return runtime
    }

    private static func positive(_ node: Node, _ what: String, _ reader: YAMLReader) -> Double? {
        guard let value = reader.number(node, what) else { return nil }
        guard value > 0 else {
            reader.fail(.invalidValue, at: node, "\(what) must be more than 0 seconds, found \(value)")
            return nil
        }
        return value
    }

    /// A YAML value as the JSON it stands for: plain scalars are numbers, booleans or null when
    /// they read as one, quoted scalars are text.
    private static func json(_ node: Node, _ what: String, _ reader: YAMLReader) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            guard scalar.style == .plain else { return .string(scalar.string) }
            switch scalar.string {
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            case "", "~", "null", "Null", "NULL": return .null
            default: break
            }
            switch NumberLiteral.parse(scalar.string) {
            case .success(.integer(let value))?: return .integer(value)
            case .success(.decimal(let value))?: return .number(value)
            case .failure?:
                reader.fail(.invalidValue, at: node, "\(what) is too large: \(scalar.string.prefix(40))")
                return .null
            case nil: return .string(scalar.string)
            }
        case .sequence(let sequence):
            return .array(sequence.enumerated().map { json($1, "\(what)[\($0)]", reader) })
        case .mapping(let mapping):
            var members: [String: JSONValue] = [:]
            for (key, value) in mapping {
                let name = key.string ?? ""
                members[name] = json(value, "\(what).\(name)", reader)
            }
            return .object(members)
        case .alias:
            reader.fail(.wrongType, at: node, "\(what) cannot be a YAML alias")
            return .null
        }
    }
}
