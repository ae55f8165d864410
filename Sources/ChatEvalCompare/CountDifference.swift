import ChatEvalCore

/// A count on both sides.
public struct CountDifference: Codable, Sendable, Hashable {
    public var name: String
    public var base: String
    public var head: String
    /// head − base for counts; nil for a stop reason or a digest.
    public var change: Int?
}
