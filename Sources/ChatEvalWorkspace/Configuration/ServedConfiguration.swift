import ChatEvalCore
import ChatEvalOpenAI
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Which runtime a run uses and, for a served one, how to reach it — resolved like every other
/// setting: command line, then the environment (`CHATEVAL_RUNTIME`, `CHATEVAL_BASE_URL`), then the
/// project file's `runtime:` section, then defaults; `sources` says which, under the project
/// file's key names.
package struct ServedConfiguration {
    package var kind: RuntimeKind
    /// Set when `kind` is `.openai`; its model name is empty (see `modelNames`).
    var openAI: OpenAIConfiguration?
    /// The served models to run, side by side when several; `[""]` when none is named (the
    /// server's only model). Empty for the in-process runtime.
    package var modelNames: [String]
    package var sources: [String: SettingSource]

    package static func resolve(
        _ options: ServedOverrides, project: ProjectFile?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ServedConfiguration {
        var sources: [String: SettingSource] = [:]
        let section = project?.runtime
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        func pick<T>(_ name: String, _ commandLine: T?, _ fromEnvironment: T? = nil, _ fromProject: T?) -> T? {
            let chosen = SettingSource.first(commandLine: commandLine, environment: fromEnvironment, projectFile: fromProject)
            if let chosen { sources[name] = chosen.source }
            return chosen?.value
        }

        let environmentKind = try variable("CHATEVAL_RUNTIME").map { name -> RuntimeKind in
            guard let kind = RuntimeKind(rawValue: name) else {
                throw failure("CHATEVAL_RUNTIME=\(name) is not a runtime; use llama or openai", .badInput)
            }
            return kind
        }
        let baseURL = pick("base_url", options.baseURL, variable("CHATEVAL_BASE_URL"), section?.baseURL)
        // A base URL given anywhere means a served runtime unless the kind is said.
        let kind = pick("runtime", options.runtime, environmentKind, section?.kind) ?? (baseURL == nil ? .llama : .openai)
        if sources["runtime"] == nil { sources["runtime"] = baseURL == nil ? .builtIn : sources["base_url"] }
        guard kind == .openai else {
            if options.baseURL != nil || !options.modelNames.isEmpty {
                throw failure("--base-url and --model-name need --runtime openai (the in-process runtime takes --model PATH)", .badInput)
            }
            return ServedConfiguration(kind: .llama, openAI: nil, modelNames: [], sources: sources)
        }
        guard let baseURL else {
            throw failure(
                "--runtime openai needs the server's base URL: --base-url http://127.0.0.1:8080/v1 "
                    + "(or CHATEVAL_BASE_URL, or runtime.base_url in the project file)",
                .badInput)
        }
        var retry = RetryPolicy()
        if let retries = pick("retries", options.retries, nil, section?.retries) { retry.maximumRetries = retries }
        let configuration = OpenAIConfiguration(
            baseURL: baseURL,
            modelName: "",
            apiKeyVariable: pick("api_key_env", options.apiKeyVariable, nil, section?.apiKeyVariable),
            requestTimeout: pick("request_timeout", options.requestTimeout, nil, section?.requestTimeout)
                ?? OpenAIConfiguration.defaultRequestTimeout,
            connectTimeout: pick("connect_timeout", options.connectTimeout, nil, section?.connectTimeout)
                ?? OpenAIConfiguration.defaultConnectTimeout,
            stallTimeout: pick("stall_timeout", options.stallTimeout, nil, section?.stallTimeout)
                ?? OpenAIConfiguration.defaultStallTimeout,
            extraFields: pick("extra_fields", options.extraFields, nil, section?.extraFields) ?? [:],
            affinity: OpenAIConfiguration.Affinity(
                header: pick("affinity", options.affinityHeader, nil, section?.affinityHeader),
                userField: pick("affinity_user", options.affinityUserField ? true : nil, nil, section?.affinityUserField) ?? false),
            backendHeader: pick("backend_header", options.backendHeader, nil, section?.backendHeader),
            retry: retry)
        if let problem = configuration.problems.first {
            throw failure("the served runtime: \(problem)", .badInput)
        }
        let modelNames = pick("model_name", options.modelNames.isEmpty ? nil : options.modelNames, nil, section?.modelNames) ?? [""]
        return ServedConfiguration(kind: .openai, openAI: configuration, modelNames: modelNames, sources: sources)
    }

    /// Opens a connection for the served model `modelName` ("" for the server's only model): bad
    /// settings or a missing API key are bad input (exit 2); a server that cannot be reached, or
    /// libcurl that cannot be loaded, means the run cannot happen (exit 3).
    package func connect(modelName: String) async throws -> OpenAIConnection {
        guard var openAI else { throw failure("no served runtime is configured (--runtime openai --base-url URL)", .badInput) }
        openAI.modelName = modelName
        do {
            return try await OpenAIConnection.open(openAI)
        } catch {
            let status: ExitStatus = error.code == .unreachable || error.code == .libraryUnavailable ? .runIncomplete : .badInput
            throw failure("\(error.message)", status)
        }
    }
}
