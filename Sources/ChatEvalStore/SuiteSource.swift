import ChatEvalCore

/// A suite's file and text, as a run read it.
public struct SuiteSource: Codable, Sendable, Hashable {
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}
