import ChatEvalCore

/// The side-by-side run a record belongs to.
public struct RunGroup: Codable, Sendable, Hashable {
    /// Shared by every record of the group.
    public var id: String
    /// This record's place (1-based) among `count`.
    public var index: Int
    public var count: Int
    /// What sets this record apart in the group's report (the model's file name, with the chat
    /// template or context size where those differ).
    public var label: String

    public init(id: String, index: Int, count: Int, label: String) {
        self.id = id
        self.index = index
        self.count = count
        self.label = label
    }
}
