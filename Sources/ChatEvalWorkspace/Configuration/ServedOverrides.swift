import ChatEvalCore
import ChatEvalSuites

/// A served runtime's settings as the command line gives them (nil where an option was not
/// given): `ServedConfiguration.resolve` falls back to the environment, the project file's
/// `runtime:` section, then defaults.
package struct ServedOverrides: Sendable {
    package var runtime: RuntimeKind?
    package var baseURL: String?
    package var modelNames: [String]
    package var apiKeyVariable: String?
    package var requestTimeout: Double?
    package var connectTimeout: Double?
    package var stallTimeout: Double?
    package var retries: Int?
    /// Fields added to every request body, by name.
    package var extraFields: [String: JSONValue]?
    package var affinityHeader: String?
    package var affinityUserField: Bool
    package var backendHeader: String?

    package init(
        runtime: RuntimeKind? = nil, baseURL: String? = nil, modelNames: [String] = [], apiKeyVariable: String? = nil,
        requestTimeout: Double? = nil, connectTimeout: Double? = nil, stallTimeout: Double? = nil, retries: Int? = nil,
        extraFields: [String: JSONValue]? = nil, affinityHeader: String? = nil, affinityUserField: Bool = false,
        backendHeader: String? = nil
    ) {
        self.runtime = runtime
        self.baseURL = baseURL
        self.modelNames = modelNames
        self.apiKeyVariable = apiKeyVariable
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.retries = retries
        self.extraFields = extraFields
        self.affinityHeader = affinityHeader
        self.affinityUserField = affinityUserField
        self.backendHeader = backendHeader
    }
}
