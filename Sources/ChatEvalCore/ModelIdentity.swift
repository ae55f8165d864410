public struct ModelIdentity: Codable, Sendable, Hashable {
    public var path: String
    public var fileBytes: Int
    /// The engine's one-line description, e.g. "gemma3 270M Q4_K - Medium".
    public var description: String
    public var parameters: Int?

    public init(path: String, fileBytes: Int, description: String, parameters: Int? = nil) {
        self.path = path
        self.fileBytes = fileBytes
        self.description = description
        self.parameters = parameters
    }
}
