import ChatEvalCore

/// One argument of a check type.
public struct ArgumentInfo: Sendable, Hashable {
    public let name: String
    /// The accepted values, in words: "string", "integer ≥ 0", "string or list of strings"...
    public let valueType: String
    public let required: Bool
    public let summary: String

    public init(_ name: String, _ valueType: String, required: Bool, _ summary: String) {
        self.name = name
        self.valueType = valueType
        self.required = required
        self.summary = summary
    }
}
