import ArgumentParser
import ChatEvalCore
import ChatEvalSuites
import ChatEvalWorkspace
import Foundation

/// A served runtime instead of the in-process model (`--runtime openai`), as given on the
/// command line; unset options fall back to the environment (`CHATEVAL_BASE_URL`), the project
/// file's `runtime:` section, then defaults (see `ServedConfiguration`).
struct ServedRuntimeOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "llama: the model in this process (default); "
                + "openai: an OpenAI-compatible server (llama-server, vLLM, Ollama, mlx_lm.server...).",
            valueName: "kind"))
    var runtime: RuntimeKind?

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp("The server's base URL, as OpenAI clients take it (http://127.0.0.1:8080/v1).", valueName: "url"))
    var baseURL: String?

    @Option(
        name: .customLong("model-name"),
        help: ArgumentHelp(
            "The model field of every request (the served model's name; llama-server ignores it); "
                + "repeat it to run several of the server's models side by side.",
            valueName: "name"))
    var modelNames: [String] = []

    @Option(
        name: .customLong("api-key-env"),
        help: ArgumentHelp(
            "Name of the environment variable holding the API key (sent as a bearer token, never recorded).", valueName: "variable"))
    var apiKeyVariable: String?

    @Option(
        name: .customLong("request-timeout"),
        help: ArgumentHelp("Longest a turn may take, request to last byte (default 600).", valueName: "seconds"))
    var requestTimeout: Double?

    @Option(
        name: .customLong("connect-timeout"), help: ArgumentHelp("Longest to wait for a connection (default 10).", valueName: "seconds"))
    var connectTimeout: Double?

    @Option(
        name: .customLong("stall-timeout"),
        help: ArgumentHelp(
            "Longest a turn may go without progress: the response's head, a keep-alive comment, or an event "
                + "that carries something (an empty delta does not) (default 60).", valueName: "seconds"))
    var stallTimeout: Double?

    @Option(name: .customLong("retries"), help: "Retries of a turn after 429, 503 or a lost connection, with backoff (default 3).")
    var retries: Int?

    @Option(
        name: .customLong("request-field"),
        help: ArgumentHelp(
            "A field added to every request body, its value JSON or text (repeatable): --request-field repeat_penalty=1.1",
            valueName: "name=value"))
    var requestFields: [String] = []

    @Option(
        name: .customLong("affinity-header"),
        help: ArgumentHelp(
            "Send each conversation's affinity key in this header, so a load balancer keeps its turns on one backend.", valueName: "name"))
    var affinityHeader: String?

    @Flag(name: .customLong("affinity-user"), help: "Send each conversation's affinity key as the request's user field.")
    var affinityUserField = false

    @Option(
        name: .customLong("backend-header"),
        help: ArgumentHelp("Response header naming the backend that served a turn, recorded per turn.", valueName: "name"))
    var backendHeader: String?

    /// The `--request-field` values by name; throws a ValidationError naming a malformed one.
    func extraFields() throws -> [String: JSONValue]? {
        guard !requestFields.isEmpty else { return nil }
        var fields: [String: JSONValue] = [:]
        for field in requestFields {
            guard let equals = field.firstIndex(of: "="), equals != field.startIndex else {
                throw ValidationError("--request-field \(field): write name=value, e.g. --request-field repeat_penalty=1.1")
            }
            let value = String(field[field.index(after: equals)...])
            fields[String(field[..<equals])] = (try? JSONDecoder().decode(JSONValue.self, from: Data(value.utf8))) ?? .string(value)
        }
        return fields
    }

    /// The options as the workspace takes them (`ServedConfiguration.resolve`).
    func overrides() throws -> ServedOverrides {
        ServedOverrides(
            runtime: runtime, baseURL: baseURL, modelNames: modelNames, apiKeyVariable: apiKeyVariable, requestTimeout: requestTimeout,
            connectTimeout: connectTimeout, stallTimeout: stallTimeout, retries: retries, extraFields: try extraFields(),
            affinityHeader: affinityHeader, affinityUserField: affinityUserField, backendHeader: backendHeader)
    }

    func validate() throws {
        if let requestTimeout, !(requestTimeout > 0 && requestTimeout.isFinite) {
            throw ValidationError("--request-timeout must be more than 0 seconds (got \(requestTimeout))")
        }
        if let stallTimeout, !(stallTimeout > 0 && stallTimeout.isFinite) {
            throw ValidationError("--stall-timeout must be more than 0 seconds (got \(stallTimeout))")
        }
        if let connectTimeout, !(connectTimeout > 0 && connectTimeout.isFinite) {
            throw ValidationError("--connect-timeout must be more than 0 seconds (got \(connectTimeout))")
        }
        if let retries, !(0...100).contains(retries) { throw ValidationError("--retries must be between 0 and 100 (got \(retries))") }
        if modelNames.contains(where: \.isEmpty) { throw ValidationError("--model-name needs a name (the model field of the requests)") }
        if Set(modelNames).count < modelNames.count { throw ValidationError("--model-name repeats a model; give each once") }
        _ = try extraFields()
    }
}

extension RuntimeKind: ExpressibleByArgument {}
